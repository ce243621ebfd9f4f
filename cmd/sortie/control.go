package main

import (
	"fmt"
	"net"
	"os"
	"os/user"
	"slices"
	"strconv"
	"syscall"

	"sortie/cmd/sortie/internal/daemon"
)

// controlAccess says who may give commands over the control socket: the daemon's own user, root, and
// members of the configured group (control.group). The socket's file mode keeps others from connecting;
// the peer's credentials (SO_PEERCRED) are checked again on every connection.
type controlAccess struct {
	group     int // -1: none configured
	groupName string
}

func controlAccessFor(cfg *daemon.Config) (controlAccess, error) {
	a := controlAccess{group: -1}
	if cfg.Control.Group == "" {
		return a, nil
	}
	g, err := user.LookupGroup(cfg.Control.Group)
	if err != nil {
		return a, fmt.Errorf("control.group: %v", err)
	}
	gid, err := strconv.Atoi(g.Gid)
	if err != nil {
		return a, fmt.Errorf("control.group: %v", err)
	}
	return controlAccess{group: gid, groupName: cfg.Control.Group}, nil
}

// allows reads the connecting process's credentials and says whether it may use the socket.
func (a controlAccess) allows(c net.Conn) (uid int, ok bool, why string) {
	uc, isUnix := c.(*net.UnixConn)
	if !isUnix {
		return -1, false, "not a local connection"
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, false, err.Error()
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil || cerr != nil {
		return -1, false, fmt.Sprint("its credentials could not be read: ", err, cerr)
	}
	uid = int(cred.Uid)
	if uid == 0 || uid == os.Getuid() {
		return uid, true, ""
	}
	if a.group >= 0 {
		if int(cred.Gid) == a.group {
			return uid, true, ""
		}
		if u, err := user.LookupId(strconv.Itoa(uid)); err == nil {
			if ids, err := u.GroupIds(); err == nil && slices.Contains(ids, strconv.Itoa(a.group)) {
				return uid, true, ""
			}
		}
		return uid, false, "the user is neither the daemon's user nor in the group " + a.groupName
	}
	return uid, false, "only the daemon's own user (and root) may; see control.group"
}
