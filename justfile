# just build | links DIR | test | test-short | gate  (just is the npm package rust-just)

build:
    scripts/build.sh

links dir: build
    bin/boxmaker links {{dir}}

test:
    scripts/test.sh

# go test -short: every test but the crash, race and soak suites (the
# scripts that skip themselves under -short; go test without it runs them)
test-short: build
    . scripts/env.sh && go test -short -tags "$BOXMAKER_TAGS" ./...

gate: build
    bin/boxmaker gate
