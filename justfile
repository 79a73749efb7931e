# just build | links DIR | test | test-short | scripts ROLE [FLAGS] | gate  (just is the npm package rust-just)

build:
    scripts/build.sh

links dir: build
    bin/boxmaker links {{dir}}

test:
    scripts/test.sh

# (TestCrashSuites) and the slow Podman scripts, which skip themselves
# under -short; go test without it runs them (testdata/script/README.md).
# go test -short: every test but the crash and race suites
test-short: build
    . scripts/env.sh && go test -short -tags "$BOXMAKER_TAGS" ./...

# A script's role is its name's first word (testdata/script/README.md,
# "Roles"); FLAGS go to go test, e.g. just scripts memoryd -short.
# one role's end-to-end scripts and crash suites
scripts role *flags: build
    . scripts/env.sh && go test -tags "$BOXMAKER_TAGS" -run '^(TestScripts|TestCrashSuites)$' -v {{flags}} . -role {{role}}

gate: build
    bin/boxmaker gate
