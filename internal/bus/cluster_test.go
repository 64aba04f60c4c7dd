package bus

import (
	"testing"
	"time"
)

// TestCluster: two embedded servers joined by a route are one bus: a
// message published on one reaches a subscriber on the other, and a
// client given both servers' URLs goes on over the other when its own
// stops.
func TestCluster(t *testing.T) {
	s1, err := StartClustered("127.0.0.1:0", ClusterConfig{Name: "t", Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	s2, err := StartClustered("127.0.0.1:0", ClusterConfig{Name: "t", Addr: "127.0.0.1:0", Routes: []string{"nats://" + s1.ClusterAddr()}})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			s2.Close()
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); s1.Routes() == 0 || s2.Routes() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("the servers did not route to each other")
		}
		time.Sleep(20 * time.Millisecond)
	}
	pub, err := Connect(s1.URL(), "pub", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	sub, err := Connect(s2.URL()+","+s1.URL(), "sub", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	got := make(chan string, 16)
	if _, err := sub.Subscribe("x", func(_ string, data []byte, _ func([]byte)) { got <- string(data) }); err != nil {
		t.Fatal(err)
	}
	await := func(want string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			if err := pub.Publish("x", []byte(want)); err != nil {
				t.Fatal(err)
			}
			select {
			case m := <-got:
				if m == want {
					return
				}
			case <-time.After(100 * time.Millisecond):
			case <-deadline:
				t.Fatalf("%q never crossed the cluster", want)
			}
		}
	}
	await("over the route")
	s2.Close() // the subscriber's server
	stopped = true
	await("after the failover")
}
