package boxmaker

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"boxmaker/core/atomicfile"
	"boxmaker/core/conf"
)

// ownerLine matches one of [runner]'s owner keys on a line of its own,
// as init writes it; a comment after the value is kept.
var ownerLine = map[string]*regexp.Regexp{
	"owner_uid": regexp.MustCompile(`(?m)^([ \t]*owner_uid[ \t]*=[ \t]*)-?[0-9]+([ \t]*(#.*)?)$`),
	"owner_gid": regexp.MustCompile(`(?m)^([ \t]*owner_gid[ \t]*=[ \t]*)-?[0-9]+([ \t]*(#.*)?)$`),
}

// keptOwner reports the owner of a brokerd.toml that init kept, and with
// an explicit --owner writes it there (issue 25 item 2, D881): init must
// never say the tools act for an owner the file does not name.
func keptOwner(path string, uid, gid int, explicit bool) error {
	var b conf.Brokerd
	if err := conf.Load(path, &b); err != nil {
		fmt.Printf("init: the owner was not written: %s does not load (%s); fix it, then run init --owner %d:%d again\n", path, strings.ReplaceAll(err.Error(), "\n", "; "), uid, gid)
		return nil
	}
	have := fmt.Sprintf("%d:%d", b.Runner.OwnerUID, b.Runner.OwnerGID)
	want := fmt.Sprintf("%d:%d", uid, gid)
	switch {
	case !explicit && (b.Runner.OwnerUID == 0 || b.Runner.OwnerGID == 0):
		fmt.Printf("init: [runner] owner_uid and owner_gid are %s in %s: brokerd runs no file tool until they name the user it acts for (boxmaker init --owner %s writes them)\n", have, path, orUIDGID(uid, gid))
		return nil
	case have == want:
		fmt.Printf("init: [runner] tools act for the owner %s (as %s says); their files belong to that user\n", have, path)
		return nil
	case !explicit:
		fmt.Printf("init: [runner] owner is %s as %s says, not %s: init changes it only with --owner (boxmaker init --owner %s)\n", have, path, want, orUIDGID(uid, gid))
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text := string(data)
	for key, re := range ownerLine {
		if n := len(re.FindAllStringIndex(text, -1)); n != 1 {
			fmt.Printf("init: the owner was not written: %s has %d lines \"%s = N\" (init changes exactly one); set owner_uid = %d and owner_gid = %d under [runner] by hand\n", path, n, key, uid, gid)
			return nil
		}
	}
	text = ownerLine["owner_uid"].ReplaceAllString(text, fmt.Sprintf("${1}%d${2}", uid))
	text = ownerLine["owner_gid"].ReplaceAllString(text, fmt.Sprintf("${1}%d${2}", gid))
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, []byte(text), fi.Mode().Perm()); err != nil {
		return fmt.Errorf("cannot write the owner to %s: %w", path, err)
	}
	var after conf.Brokerd
	if err := conf.Load(path, &after); err != nil || after.Runner.OwnerUID != uid || after.Runner.OwnerGID != gid {
		return fmt.Errorf("wrote the owner %s to %s, but it does not read back as [runner] owner_uid and owner_gid: set them under [runner] by hand", want, path)
	}
	fmt.Printf("init: [runner] owner changed from %s to %s in %s; tools act for the owner %s (a running brokerd takes it at its next start)\n", have, want, path, want)
	return nil
}

func orUIDGID(uid, gid int) string {
	if uid == 0 {
		return "UID:GID"
	}
	return fmt.Sprintf("%d:%d", uid, gid)
}

// allowsUID says whether the daemon config at path names uid in its
// [sockets] allow_uids (each of brokerd, loopd and memoryd has one).
func allowsUID(path string, uid uint32) bool {
	var v struct {
		Sockets struct {
			AllowUIDs []uint32 `toml:"allow_uids"`
		} `toml:"sockets"`
	}
	data, err := os.ReadFile(path)
	if err != nil || toml.Unmarshal(data, &v) != nil {
		return false
	}
	return slices.Contains(v.Sockets.AllowUIDs, uid)
}
