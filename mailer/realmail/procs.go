package realmail

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Both masters make themselves session leaders when they daemonize, and every process they start
// stays in that session: the session ID is how the stray children of a killed master are found.

// procStat returns a process's state letter and session ID from /proc/PID/stat.
func procStat(pid int) (state byte, sid int, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	// "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 4 {
		return 0, 0, false
	}
	sid, _ = strconv.Atoi(f[3])
	return f[0][0], sid, true
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	state, _, ok := procStat(pid)
	return ok && state != 'Z' && state != 'X'
}

// sessionMembers lists the live processes of session sid.
func sessionMembers(sid int) []int {
	if sid <= 0 {
		return nil // 0 is the kernel threads' session, never a daemon's
	}
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, s, ok := procStat(pid); ok && s == sid && state != 'Z' && state != 'X' {
			out = append(out, pid)
		}
	}
	return out
}

// stopDaemons sends SIGTERM to master processes, all at once, and waits until they and the rest of
// their sessions are gone; what is left after timeout gets SIGKILL. They go together because each
// holds connections to the other (Postfix's smtpd to Dovecot's auth service, its LMTP client to
// Dovecot's lmtp), and Dovecot's auth process lingers while Postfix still runs.
func stopDaemons(timeout time.Duration, pids ...int) error {
	type daemon struct{ pid, sid int }
	var ds []daemon
	for _, pid := range pids {
		if !alive(pid) {
			continue
		}
		_, sid, _ := procStat(pid)
		if sid != pid {
			sid = 0 // not a session leader: leave the session alone, stop only the master
		}
		ds = append(ds, daemon{pid, sid})
		syscall.Kill(pid, syscall.SIGTERM)
	}
	left := func() (n int) {
		for _, d := range ds {
			if alive(d.pid) {
				n++
			} else if d.sid > 0 {
				n += len(sessionMembers(d.sid))
			}
		}
		return n
	}
	deadline := time.Now().Add(timeout)
	for left() > 0 {
		if time.Now().After(deadline) {
			for _, d := range ds {
				syscall.Kill(d.pid, syscall.SIGKILL)
				if d.sid > 0 {
					for _, p := range sessionMembers(d.sid) {
						syscall.Kill(p, syscall.SIGKILL)
					}
				}
			}
			time.Sleep(100 * time.Millisecond)
			for _, d := range ds {
				if alive(d.pid) {
					return fmt.Errorf("realmail: process %d survived SIGKILL", d.pid)
				}
			}
			return fmt.Errorf("realmail: the mail daemons did not stop within %v of SIGTERM and were killed", timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

// The registry: one file per running instance in a folder of the temporary directory, naming the
// test process that owns it and the daemons' PIDs. A test binary killed by a timeout cannot run its
// cleanups, so the next Start stops the daemons of instances whose owner is gone.

func registryDir() string { return filepath.Join(os.TempDir(), "sortie-realmail") }

func (s *Servers) register() error {
	if s.registry == "" {
		if err := os.MkdirAll(registryDir(), 0o755); err != nil {
			return err
		}
		s.registry = filepath.Join(registryDir(), "instance-"+randomHex(6))
	}
	content := fmt.Sprintf("owner %d\ndovecot %d %s\npostfix %d %s\ndir %s\n", os.Getpid(),
		s.dovecotPID, s.dovecotConf, s.postfixPID, s.postfixConf, s.Dir)
	return os.WriteFile(s.registry, []byte(content), 0o644)
}

// reapOrphans stops instances whose owning process has died. A PID is only signalled when the
// process still is the daemon that was started: Dovecot's command line names the instance's
// dovecot.conf, Postfix's master has the instance's configuration directory in its environment.
func reapOrphans() {
	entries, err := os.ReadDir(registryDir())
	if err != nil {
		return
	}
	for _, e := range entries {
		path := filepath.Join(registryDir(), e.Name())
		data, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var owner int
		type daemon struct {
			pid    int
			config string
		}
		var daemons []daemon
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) == 2 && f[0] == "owner":
				owner, _ = strconv.Atoi(f[1])
			case len(f) == 3 && (f[0] == "dovecot" || f[0] == "postfix"):
				pid, _ := strconv.Atoi(f[1])
				daemons = append(daemons, daemon{pid, f[2]})
			}
		}
		if owner <= 0 || syscall.Kill(owner, 0) == nil {
			continue // still owned (or unreadable): not ours to touch
		}
		var pids []int
		for _, d := range daemons {
			if d.pid > 0 && alive(d.pid) && isInstanceOf(d.pid, d.config) {
				pids = append(pids, d.pid)
			}
		}
		stopDaemons(10*time.Second, pids...)
		os.Remove(path)
	}
}

func isInstanceOf(pid int, config string) bool {
	for _, f := range []string{"cmdline", "environ"} {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/" + f)
		if err != nil {
			continue
		}
		for _, field := range strings.Split(string(data), "\x00") {
			if field == config || field == "MAIL_CONFIG="+config {
				return true
			}
		}
	}
	return false
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
