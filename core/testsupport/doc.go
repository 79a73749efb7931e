// Package testsupport is what the tests of several packages share, written
// once: the static binary, built once per test run and shared by the test
// processes of that run (StaticBinary); a short temporary directory for
// socket paths (ShortDir); CPU time for benchmarks on a shared machine
// (CPUTime, ProcessCPU, ReportCPU, Throughput); a buffer several
// goroutines write to (Buffer); the exit status of a command that ran
// (ExitCode); a server run for the length of a test (Serve); a unix
// connection for a raw exchange (Dial), or one made as another uid
// (DialAs); a file
// damaged in place (EditFile); the parts a text must hold (ContainsAll);
// the locks of Podman 4.3's machine-wide table that podman processes lost
// (LostPodmanLocks, CountLostPodmanLocks).
//
// It is for tests only: no production package imports it (deps_test.go
// holds it), and it imports nothing of boxmaker's, so any package's tests
// may use it. Real servers of the harness a test runs in the background
// (a core/daemon socket, inferproxy, the stand-in behind it) are in
// daemontest, which imports the packages that serve them.
package testsupport
