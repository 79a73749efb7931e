// Command setidprobe tries, in its working directory, every way a program
// has to leave a set-user-ID or set-group-ID file, a device node or a
// file owned by root behind, and prints one line per attempt with its
// outcome. The runner's tests run it inside a tool's container and then
// look at what is left from the host; the outcome lines only help when a
// test fails.
package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

func main() {
	try := func(what string, err error) {
		if err != nil {
			fmt.Printf("%s: %v\n", what, err)
		} else {
			fmt.Printf("%s: done\n", what)
		}
	}
	creat := func(name string, mode uint32) error {
		fd, err := unix.Creat(name, mode)
		if err == nil {
			unix.Close(fd)
		}
		return err
	}
	openCreate := func(name string, mode uint32) error {
		fd, err := unix.Openat(unix.AT_FDCWD, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL, mode)
		if err == nil {
			unix.Close(fd)
		}
		return err
	}
	try("creat 04755", creat("p-creat-suid", 0o4755))
	try("creat 02755", creat("p-creat-sgid", 0o2755))
	try("openat O_CREAT 04755", openCreate("p-open-suid", 0o4755))
	try("openat O_CREAT 06755", openCreate("p-open-ugid", 0o6755))
	try("mknod S_IFREG|04755", unix.Mknod("p-mknod-suid", unix.S_IFREG|0o4755, 0))
	try("mknod S_IFCHR 1:3", unix.Mknod("p-mknod-null", unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))))
	try("mknod S_IFBLK 7:0", unix.Mknod("p-mknod-loop", unix.S_IFBLK|0o666, int(unix.Mkdev(7, 0))))
	try("create p-plain", creat("p-plain", 0o755))
	try("chmod 04755", unix.Chmod("p-plain", 0o4755))
	try("fchmodat 02755", unix.Fchmodat(unix.AT_FDCWD, "p-plain", 0o2755, 0))
	if f, err := os.Open("p-plain"); err == nil {
		try("fchmod 06755", unix.Fchmod(int(f.Fd()), 0o6755))
		f.Close()
	}
	try("chown 0:0", unix.Chown("p-plain", 0, 0))
	try("mkdir p-dir; chmod 02755", func() error {
		if err := unix.Mkdir("p-dir", 0o755); err != nil {
			return err
		}
		return unix.Chmod("p-dir", 0o2755)
	}())
	try("setxattr security.capability", unix.Setxattr("p-plain", "security.capability", []byte{1, 0, 0, 2, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 0))
}
