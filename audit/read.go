package audit

import (
	"fmt"
	"os"
)

// Records reads every record of the log in dir, in log order, for a
// reader that wants what the log says rather than whether it holds (the
// demo's table, a script's check). It takes no lock and may run beside
// brokerd: the latest file's torn or half-written last line is not a
// record yet and is left out. A complete line that is not a record is an
// error naming its file and line; Verify is what judges the chain.
func Records(dir string) ([]Record, error) {
	nums, err := logFiles(dir)
	if err != nil {
		return nil, err
	}
	var recs []Record
	for _, n := range nums {
		f, err := os.Open(logPath(dir, n))
		if err != nil {
			return nil, err
		}
		var bad error
		_, _, err = eachLine(f, func(lineNo int, raw []byte) {
			if bad != nil {
				return
			}
			r, perr := ParseLine(raw)
			if perr != nil {
				bad = fmt.Errorf("%s:%d: %v", fileName(n), lineNo, perr)
				return
			}
			recs = append(recs, r)
		})
		f.Close()
		if err == nil {
			err = bad
		}
		if err != nil {
			return nil, err
		}
	}
	return recs, nil
}
