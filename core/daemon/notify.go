package daemon

import (
	"net"
	"strings"
)

// The states a daemon tells systemd (sd_notify(3)) under Type=notify.
const (
	// NotifyReady: every socket serves; systemd starts what is ordered
	// after the unit.
	NotifyReady = "READY=1"
	// NotifyStopping: a stop began; systemd shows the unit as
	// deactivating until the process ends.
	NotifyStopping = "STOPPING=1"
)

// Notify sends state to the datagram socket named by $NOTIFY_SOCKET, as
// sd_notify(3) does. The caller passes the variable's value; an empty one
// means no service manager is waiting, and nothing is sent. An abstract
// socket is written with a leading "@".
func Notify(notifySocket, state string) error {
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
	_, err = c.Write([]byte(state))
	return err
}
