package audit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// logFiles lists the numbered files of the log in dir, in order. Other
// names (the lock, a copy someone left) are not the log's and are ignored.
func logFiles(dir string) ([]int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var nums []int
	for _, e := range entries {
		if n := fileNumber(e.Name()); n > 0 && e.Type().IsRegular() {
			nums = append(nums, n)
		}
	}
	sort.Ints(nums)
	return nums, nil
}

// missingBefore names the files missing between the file before (0: none)
// and n.
func missingBefore(before, n int) []string {
	var names []string
	for m := before + 1; m < n; m++ {
		names = append(names, fileName(m))
		if len(names) == 3 && n-m > 1 {
			names = append(names, fmt.Sprintf("and %d more", n-m-1))
			break
		}
	}
	return names
}

// eachLine calls fn for every complete line of r (without its newline) and
// returns what follows the last newline: a torn line, or nothing.
func eachLine(r io.Reader, fn func(lineNo int, raw []byte)) (tail []byte, lines int, err error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			long = append(long, chunk...)
			continue
		case err == io.EOF:
			return append(long, chunk...), lines, nil
		case err != nil:
			return nil, lines, err
		}
		raw := chunk[:len(chunk)-1]
		if long != nil {
			long = append(long, raw...)
			raw, long = long, nil
		}
		lines++
		fn(lines, raw)
	}
}

// lastLine reads the last complete line of the file at path, its line
// number, and whether the file ends with a newline.
func lastLine(path string) (raw []byte, lineNo int, endsClean bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, false, err
	}
	defer f.Close()
	// The line number needs a count of the newlines, so the file is read
	// whole; it happens once per start, for one file.
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, 0, false, err
	}
	if len(data) == 0 {
		return nil, 0, true, nil
	}
	endsClean = data[len(data)-1] == '\n'
	body := data
	if endsClean {
		body = data[:len(data)-1]
	} else if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		body = data[:i]
	} else {
		return nil, 0, false, nil
	}
	start := bytes.LastIndexByte(body, '\n') + 1
	return body[start:], bytes.Count(body, []byte{'\n'}) + 1, endsClean, nil
}

func logPath(dir string, n int) string { return filepath.Join(dir, fileName(n)) }
