package runbook

// The entries of docs/yaag/troubleshooting.md that code refers to.
const (
	YaagNoAPIKey          YaagEntry = "no-api-key"
	YaagInlineLimits      YaagEntry = "inline-program-limits"
	YaagAskFailed         YaagEntry = "ask-failed"
	YaagDescribe          YaagEntry = "describe-runs-the-top-level"
	YaagEditorTypes       YaagEntry = "editor-types"
	YaagConfigFile        YaagEntry = "config-file"
	YaagCatalogNotFound   YaagEntry = "catalog-entry-not-found"
	YaagCatalogAmbiguous  YaagEntry = "catalog-entry-ambiguous"
	YaagCatalogUnresolved YaagEntry = "catalog-entry-unresolvable"
	YaagProfiledSpawn     YaagEntry = "profiled-spawn"
	YaagRenderMarker      YaagEntry = "render-marker"
	YaagUserInputSpawn    YaagEntry = "user-input-spawn"
	YaagSchemaUnsupported YaagEntry = "schema-unsupported"
)

// brokerd's entry for a yaag_run it decided but did not start.
const YaagRunRefused Entry = "yaag-run-refused"
