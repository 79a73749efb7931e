package daemon

import (
	"net"
	"strings"
)

// NotifyReady tells systemd (Type=notify) that the daemon is listening, by
// sending READY=1 to the datagram socket named by $NOTIFY_SOCKET. The
// caller passes the variable's value; an empty one means no service
// manager is waiting, and nothing is sent. An abstract socket is written
// with a leading "@".
func NotifyReady(notifySocket string) error {
	if notifySocket == "" {
		return nil
	}
	name := notifySocket
	if strings.HasPrefix(name, "@") {
		name = "\x00" + name[1:]
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Write([]byte("READY=1"))
	return err
}
