package audit

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestRecordsReadsEveryFileInOrderAndLeavesATornTailOut(t *testing.T) {
	dir := fixture(t, 7, 3) // 000001: 1-3, 000002: 4-6, 000003: start of 7
	last := logPath(dir, 3)
	f, err := os.OpenFile(last, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"seq":8,"prev":"`) // a line being written
	f.Close()
	recs, err := Records(dir)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []uint64
	for _, r := range recs {
		seqs = append(seqs, r.Seq)
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] != seqs[i-1]+1 {
			t.Fatalf("seqs out of order: %v", seqs)
		}
	}
	found := 0
	for _, r := range recs {
		if r.Type == TypeResult && strings.HasPrefix(r.Call, "c-") {
			found++
		}
	}
	if found != 7 {
		t.Errorf("Records found %d of the 7 results: %v", found, seqs)
	}
}

func TestRecordsNamesTheLineThatIsNotARecord(t *testing.T) {
	dir := fixture(t, 2, 0)
	data, err := os.ReadFile(logPath(dir, 1))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("000001.jsonl:%d: ", strings.Count(string(data), "\n")+1)
	f, err := os.OpenFile(logPath(dir, 1), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("not a record\n")
	f.Close()
	_, err = Records(dir)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Records = %v, want an error beginning %q", err, want)
	}
}
