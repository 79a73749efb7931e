# just build | links DIR | test | gate  (just is the npm package rust-just)

build:
    scripts/build.sh

links dir: build
    bin/boxmaker links {{dir}}

test:
    scripts/test.sh

gate: build
    bin/boxmaker gate
