package gateway

// BeforeTouch has f called as each Touch of st begins, before its change
// is made: a test writes the state there (st.Update), as another
// goroutine's Update may at that moment, and reads what a kill would
// leave on disk. Set it before the Store is used.
func BeforeTouch(st *Store, f func()) { st.beforeTouch = f }
