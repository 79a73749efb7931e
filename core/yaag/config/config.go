// Package config reads yaag's configuration: three TOML files read at the
// start of a Run, each strictly (an unknown key, a key in another case, a
// value of the wrong type is an error naming the file and the line):
//
//  1. the global file: $BOXMAKER_HOME/etc/yaag.toml, else
//     /etc/boxmaker/yaag.toml (absent: skipped);
//  2. the project file: .yaag/config.toml in the Program Directory
//     (absent: skipped);
//  3. the --config file (absent: an error, "does not exist").
//
// A later file's keys win over an earlier one's; --no-config skips the
// first two. docs/yaag/configuration.md describes every key.
//
// A confined Run (yaag run --root, brokerd's yaag_run) reads the project
// file from its snapshot.Tree, never by path, and takes no path-valued key
// from it: the program's directory is the model's to write, and a path
// there (loop_socket) would make yaag connect wherever the model says.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"boxmaker/core/conf"
	"boxmaker/core/yaag/snapshot"
	"boxmaker/runbook"
)

// Texts the troubleshooting page quotes.
const (
	textMissing runbook.Quoted = "does not exist"
	textPathKey runbook.Quoted = "names a path, which a confined Run takes only from brokerd"
)

// File is one configuration file. Pointers tell a key that is absent from
// one set to its zero value.
type File struct {
	Profile    *string `toml:"profile"`
	LoopSocket *string `toml:"loop_socket"`
	Run        struct {
		WallMS *int64 `toml:"wall_ms"`
	} `toml:"run"`
	Ask struct {
		StallMS       *int64 `toml:"stall_ms"`
		OutputRetries *int   `toml:"output_retries"`
	} `toml:"ask"`
	Cassette struct {
		KeepPrompts *bool `toml:"keep_prompts"`
	} `toml:"cassette"`
}

// Config is the configuration of one Run, after layering.
type Config struct {
	Profile       string
	ProfileOrigin string // the file that set Profile
	LoopSocket    string // "": loopd's own config says
	Wall          time.Duration
	Stall         time.Duration
	OutputRetries int
	KeepPrompts   bool     // a Cassette keeps the prompts' text, not only their hashes
	Files         []string // the files read, in order
}

// Defaults are a Run's settings when no file sets them.
func Defaults() Config {
	return Config{Wall: time.Hour, Stall: 2 * time.Minute, OutputRetries: 2}
}

// Sources are the three locations of one Run.
type Sources struct {
	Global, Project, Explicit string // "" is none
	NoConfig                  bool
	// Tree, when set, holds the project file (Project is beneath its
	// directory): a confined Run's.
	Tree *snapshot.Tree
}

// Error is a configuration file that stops the Run.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string {
	return runbook.Refuse(runbook.YaagConfigFile, "%s", e.Err.Error()).Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Load reads the sources in order and layers them.
func Load(s Sources) (Config, error) {
	c := Defaults()
	type layer struct {
		path     string
		required bool
	}
	var layers []layer
	if !s.NoConfig {
		layers = append(layers, layer{s.Global, false}, layer{s.Project, false})
	}
	layers = append(layers, layer{s.Explicit, true})
	for _, l := range layers {
		if l.path == "" {
			continue
		}
		var data []byte
		var err error
		confined := s.Tree != nil && l.path == s.Project
		if confined {
			data, err = s.Tree.ReadFile(l.path)
			if terr := s.Tree.Err(); terr != nil {
				return c, terr
			}
		} else {
			data, err = os.ReadFile(l.path)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist) && !l.required:
			continue
		case errors.Is(err, fs.ErrNotExist):
			return c, &Error{l.path, fmt.Errorf("the config file %s %s", l.path, textMissing)}
		case err != nil:
			return c, &Error{l.path, fmt.Errorf("the config file %s cannot be read: %v", l.path, err)}
		}
		f, err := Parse(l.path, data)
		if err != nil {
			return c, &Error{l.path, err}
		}
		if confined && f.LoopSocket != nil {
			return c, runbook.Refuse(runbook.YaagConfigPathKey, "%s: loop_socket %s (yaag run --%s); remove it from this file",
				l.path, textPathKey, "loop-socket")
		}
		c.apply(f, l.path)
		c.Files = append(c.Files, l.path)
	}
	return c, nil
}

// Parse reads one file's contents strictly; path names it in errors.
func Parse(path string, data []byte) (File, error) {
	var f File
	if err := conf.Decode(path, data, &f); err != nil {
		return File{}, err
	}
	check := func(key string, v *int64) error {
		if v != nil && *v < 0 {
			return fmt.Errorf("%s: %s is %d; it must be 0 or more", path, key, *v)
		}
		return nil
	}
	if err := check("[run] wall_ms", f.Run.WallMS); err != nil {
		return File{}, err
	}
	if err := check("[ask] stall_ms", f.Ask.StallMS); err != nil {
		return File{}, err
	}
	if r := f.Ask.OutputRetries; r != nil && (*r < 0 || *r > 10) {
		return File{}, fmt.Errorf("%s: [ask] output_retries is %d; it must be between 0 and 10", path, *r)
	}
	return f, nil
}

func (c *Config) apply(f File, path string) {
	if f.Profile != nil {
		c.Profile, c.ProfileOrigin = *f.Profile, "the config file "+path
	}
	if f.LoopSocket != nil {
		c.LoopSocket = *f.LoopSocket
	}
	if f.Run.WallMS != nil {
		c.Wall = time.Duration(*f.Run.WallMS) * time.Millisecond
	}
	if f.Ask.StallMS != nil {
		c.Stall = time.Duration(*f.Ask.StallMS) * time.Millisecond
	}
	if f.Ask.OutputRetries != nil {
		c.OutputRetries = *f.Ask.OutputRetries
	}
	if f.Cassette.KeepPrompts != nil {
		c.KeepPrompts = *f.Cassette.KeepPrompts
	}
}
