# Sourced by the scripts: the build tags and flags every build and test uses.
# sqlite_fts5: the recall index; sqlite_omit_load_extension: no dlopen in a
# static binary; osusergo, netgo: no NSS, so static linking is clean.
export CGO_ENABLED=1
BOXMAKER_TAGS='sqlite_fts5 sqlite_omit_load_extension osusergo netgo'
export BOXMAKER_TAGS
