package daemon

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// ReadSecretFile reads a password from a file that only its owner may read or write (the configuration's
// password_file, docs/operations.md): a file others can read would hand the mailbox to every user of
// the machine, so it is refused with the chmod that fixes it. One trailing newline is dropped.
func ReadSecretFile(path string) (string, error) {
	data, err := readOwnerOnly(path, "the password")
	if err != nil {
		return "", err
	}
	pw := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	if pw == "" {
		return "", errors.New(path + " is empty: write the password in it")
	}
	return pw, nil
}

// ReadKeyFile reads a private key (the configuration's dkim.key_file) from a file that only its owner
// may read or write, as ReadSecretFile does: a key others can read lets them sign mail as the service.
func ReadKeyFile(path string) ([]byte, error) {
	data, err := readOwnerOnly(path, "the key")
	if err == nil && len(data) == 0 {
		err = errors.New(path + " is empty")
	}
	return data, err
}

// readOwnerOnly reads a file that only its owner may read or write; what names its content for the
// message when there is no file.
func readOwnerOnly(path, what string) ([]byte, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("there is no file %s: write %s in it, readable by its owner only (chmod 600)", path, what)
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a file", path)
	}
	// Windows keeps no such mode bits: its file permissions are ACLs, which Go does not read.
	if perm := fi.Mode().Perm(); perm&0o077 != 0 && runtime.GOOS != "windows" {
		return nil, fmt.Errorf("%s can be read or written by others (mode %04o): run chmod 600 %s, owned by the user sortie runs as", path, perm, path)
	}
	return os.ReadFile(path)
}
