package mailer

import "time"

// SetSenderFreshConn changes how recently a kept connection must have been used to be taken without a
// NOOP first, and returns a function that puts it back.
func SetSenderFreshConn(d time.Duration) (restore func()) {
	old := senderFreshConn
	senderFreshConn = d
	return func() { senderFreshConn = old }
}

// SetIntakeLinger changes how long the first batch of a streamed group may wait to fill, and returns a
// function that puts it back.
func SetIntakeLinger(d time.Duration) (restore func()) {
	old := intakeLinger
	intakeLinger = d
	return func() { intakeLinger = old }
}

// SetIntakeSpoolMin changes the smallest group that goes through the spool, and returns a function that
// puts it back.
func SetIntakeSpoolMin(n int) (restore func()) {
	old := intakeSpoolMin
	intakeSpoolMin = n
	return func() { intakeSpoolMin = old }
}
