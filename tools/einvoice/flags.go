package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// cmdFlags is a flag set whose defaults come from environment variables and
// whose errors are one-line usage errors.
type cmdFlags struct {
	fs      *flag.FlagSet
	getenv  env
	envErr  error
	usage   string
	secrets map[string]secretFlag // flag name -> env fallback applied after parsing
}

type secretFlag struct {
	envKey string
	dst    *string
}

func newFlags(name, usage string, getenv env) *cmdFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &cmdFlags{fs: fs, getenv: getenv, usage: usage}
}

func (c *cmdFlags) envOr(key, def string) (string, string) {
	help := ""
	if key != "" {
		help = " (env " + key + ")"
		if v := c.getenv(key); v != "" {
			return v, help
		}
	}
	return def, help
}

func (c *cmdFlags) String(name, envKey, def, usage string) *string {
	v, h := c.envOr(envKey, def)
	return c.fs.String(name, v, usage+h)
}

func (c *cmdFlags) Int(name, envKey string, def int, usage string) *int {
	v, h := c.envOr(envKey, strconv.Itoa(def))
	n, err := strconv.Atoi(v)
	if err != nil && c.envErr == nil {
		c.envErr = usagef("%s=%q: not an integer", envKey, v)
	}
	return c.fs.Int(name, n, usage+h)
}

func (c *cmdFlags) Float(name, envKey string, def float64, usage string) *float64 {
	v, h := c.envOr(envKey, strconv.FormatFloat(def, 'g', -1, 64))
	f, err := strconv.ParseFloat(v, 64)
	if err != nil && c.envErr == nil {
		c.envErr = usagef("%s=%q: not a number", envKey, v)
	}
	return c.fs.Float64(name, f, usage+h)
}

func (c *cmdFlags) Duration(name, envKey string, def time.Duration, usage string) *time.Duration {
	v, h := c.envOr(envKey, def.String())
	d, err := time.ParseDuration(v)
	if err != nil && c.envErr == nil {
		c.envErr = usagef("%s=%q: not a duration (e.g. 30s)", envKey, v)
	}
	return c.fs.Duration(name, d, usage+h)
}

// Secret is a string flag whose environment value is applied after parsing,
// so that --help never prints it.
func (c *cmdFlags) Secret(name, envKey, usage string) *string {
	p := c.fs.String(name, "", usage+" (env "+envKey+")")
	if c.secrets == nil {
		c.secrets = map[string]secretFlag{}
	}
	c.secrets[name] = secretFlag{envKey: envKey, dst: p}
	return p
}

// Size is a byte count flag accepting 1048576, 512KiB, 20MiB, 1GiB.
func (c *cmdFlags) Size(name, envKey string, def int64, usage string) *byteSize {
	v, h := c.envOr(envKey, "")
	s := byteSize(def)
	if v != "" {
		if err := s.Set(v); err != nil && c.envErr == nil {
			c.envErr = usagef("%s=%q: %v", envKey, v, err)
		}
	}
	c.fs.Var(&s, name, usage+h)
	return &s
}

// parse parses args, allowing flags after positional arguments. --help prints
// the usage and the flag list to out.
func (c *cmdFlags) parse(args []string, out io.Writer) ([]string, error) {
	var pos []string
	for {
		err := c.fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			c.printHelp(out)
			return nil, errHelp
		}
		if err != nil {
			return nil, usagef("%s: %v", c.fs.Name(), err)
		}
		args = c.fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if c.envErr != nil {
		return nil, c.envErr
	}
	set := map[string]bool{}
	c.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for name, sf := range c.secrets {
		if !set[name] {
			*sf.dst = c.getenv(sf.envKey)
		}
	}
	return pos, nil
}

// parseOne is parse for a subcommand that takes exactly one input file
// (what names it in the usage error, e.g. "FILE.xml").
func (c *cmdFlags) parseOne(args []string, out io.Writer, what string) (string, error) {
	pos, err := c.parse(args, out)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usagef("%s: want exactly one %s, got %d arguments", c.fs.Name(), what, len(pos))
	}
	return pos[0], nil
}

func (c *cmdFlags) printHelp(out io.Writer) {
	fmt.Fprintf(out, "usage: %s\n\nflags:\n", c.usage)
	c.fs.SetOutput(out)
	c.fs.PrintDefaults()
	c.fs.SetOutput(io.Discard)
}

type byteSize int64

func (b *byteSize) String() string { return strconv.FormatInt(int64(*b), 10) }

func (b *byteSize) Set(s string) error {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.m
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return errors.New("want a positive size such as 20MiB, 512KiB or 1048576")
	}
	*b = byteSize(n * mult)
	return nil
}
