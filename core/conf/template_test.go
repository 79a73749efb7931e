package conf

import (
	"slices"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// Each daemon's Ready key names, in the config init writes, one of the
// home's sockets: boxmaker up waits on it, so a key that names nothing
// would make up start the next daemon at once.
func TestReadyNamesASocketOfTheTemplate(t *testing.T) {
	d := TemplateData{Home: "/h"}
	s := d.Sockets()
	sockets := []string{s.BrokerTools, s.BrokerAdmin, s.BrokerState, s.MemoryBlock, s.MemoryTools, s.MemoryAdmin, s.Loop, s.Infer, s.Gateway}
	for _, r := range Files() {
		if r.Ready == nil {
			continue
		}
		var doc map[string]any
		if err := toml.Unmarshal([]byte(r.RenderWith(d)), &doc); err != nil {
			t.Fatal(err)
		}
		var v any = doc
		for _, k := range r.Ready {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		if got, _ := v.(string); !slices.Contains(sockets, got) {
			t.Errorf("%s's Ready %v is %v in its template: want one of the home's sockets", r.Name, r.Ready, v)
		}
	}
}
