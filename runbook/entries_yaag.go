package runbook

// The entries of docs/yaag/troubleshooting.md that code refers to.
var (
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

	// Cassettes, Checkpoints and the Control Channel (issue 15).
	YaagPublishFailed   YaagEntry = "failed-to-publish-cassette"
	YaagNoCassetteDir   YaagEntry = "cannot-create-the-cassette-directory"
	YaagReplayMismatch  YaagEntry = "replay-or-resume-mismatch"
	YaagNeedsProgram    YaagEntry = "resume-needs-the-program"
	YaagForkRefused     YaagEntry = "fork-or-compact-refused"
	YaagSessionReplaced YaagEntry = "session-replaced"
	YaagPauseRefused    YaagEntry = "pause-refused"
	YaagReattachRefused YaagEntry = "reattach-refused"
	YaagProtocol        YaagEntry = "user-input-protocol"
	YaagAnswerRefused   YaagEntry = "answer-refused"
	YaagSessionAnswer   YaagEntry = "resume-session-answer"
	YaagHostSession     YaagEntry = "host-session-unusable"
)

// brokerd's entry for a yaag_run it decided but did not start.
var YaagRunRefused = newEntry("yaag-run-refused")
