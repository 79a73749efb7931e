package runbook

// The entries of docs/yaag/troubleshooting.md that code refers to.
var (
	YaagNoAPIKey          = newYaagEntry("no-api-key")
	YaagInlineLimits      = newYaagEntry("inline-program-limits")
	YaagAskFailed         = newYaagEntry("ask-failed")
	YaagDescribe          = newYaagEntry("describe-runs-the-top-level")
	YaagEditorTypes       = newYaagEntry("editor-types")
	YaagConfigFile        = newYaagEntry("config-file")
	YaagCatalogNotFound   = newYaagEntry("catalog-entry-not-found")
	YaagCatalogAmbiguous  = newYaagEntry("catalog-entry-ambiguous")
	YaagCatalogUnresolved = newYaagEntry("catalog-entry-unresolvable")
	YaagProfiledSpawn     = newYaagEntry("profiled-spawn")
	YaagRenderMarker      = newYaagEntry("render-marker")
	YaagUserInputSpawn    = newYaagEntry("user-input-spawn")
	YaagSchemaUnsupported = newYaagEntry("schema-unsupported")

	// Cassettes, Checkpoints and the Control Channel (issue 15).
	YaagPublishFailed   = newYaagEntry("failed-to-publish-cassette")
	YaagNoCassetteDir   = newYaagEntry("cannot-create-the-cassette-directory")
	YaagReplayMismatch  = newYaagEntry("replay-or-resume-mismatch")
	YaagNeedsProgram    = newYaagEntry("resume-needs-the-program")
	YaagForkRefused     = newYaagEntry("fork-or-compact-refused")
	YaagSessionReplaced = newYaagEntry("session-replaced")
	YaagPauseRefused    = newYaagEntry("pause-refused")
	YaagReattachRefused = newYaagEntry("reattach-refused")
	YaagProtocol        = newYaagEntry("user-input-protocol")
	YaagAnswerRefused   = newYaagEntry("answer-refused")
	YaagSessionAnswer   = newYaagEntry("resume-session-answer")
	YaagHostSession     = newYaagEntry("host-session-unusable")

	// Documents the model may have written, checked against the home
	// (issue 31).
	YaagNotRecorded    = newYaagEntry("checkpoint-not-recorded")
	YaagAnswerNotGiven = newYaagEntry("answer-not-given")

	// A confined Run's files (issue 23): read beneath the decided
	// directory, bounded, no path from the program's directory, and what
	// the owner approved.
	YaagProgramFileRefused = newYaagEntry("program-file-refused")
	YaagProgramTooLarge    = newYaagEntry("program-too-large")
	YaagConfigPathKey      = newYaagEntry("project-config-path-key")
	YaagProgramChanged     = newYaagEntry("program-changed")
)

// brokerd's entry for a yaag_run it decided but did not start.
var YaagRunRefused = newEntry("yaag-run-refused")

// brokerd's entry for a Run ended at one of [yaag]'s limits, or not
// started because too many Runs go.
var YaagRunLimit = newEntry("yaag-run-limit")
