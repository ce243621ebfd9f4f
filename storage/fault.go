package storage

import (
	"context"
	"errors"
	"net"
	"os"
	"syscall"

	berrors "go.etcd.io/bbolt/errors"
)

// Transient reports whether err is a fault that may go away by itself: the disk is full or failing, the
// database is locked, closed or timed out, a server cannot be reached, a deadline passed. The intake holds its
// queue only for such faults and tries the same mail again later. Every other error is permanent for the mail
// that caused it (a key too large, a value refused, a mail that cannot be rendered or queued, a bug): trying
// again would fail the same way forever, so the mail must be set aside and the ones behind it handled.
//
// The list is deliberately closed: an error not recognised here is permanent, because holding the queue on an
// unknown error is the failure that stops every game.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	switch {
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT), errors.Is(err, syscall.EIO),
		errors.Is(err, syscall.EROFS), errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EINTR),
		errors.Is(err, syscall.ENOMEM), errors.Is(err, syscall.EMFILE), errors.Is(err, syscall.ENFILE):
		return true
	case errors.Is(err, ErrLocked), errors.Is(err, berrors.ErrTimeout), errors.Is(err, berrors.ErrDatabaseNotOpen),
		errors.Is(err, berrors.ErrTxClosed), errors.Is(err, berrors.ErrDatabaseReadOnly):
		return true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled), errors.Is(err, os.ErrDeadlineExceeded):
		return true
	}
	var nerr net.Error
	if errors.As(err, &nerr) {
		return true // a server outage or a timeout on the network
	}
	var t interface{ Temporary() bool }
	if errors.As(err, &t) && t.Temporary() {
		return true
	}
	return false
}
