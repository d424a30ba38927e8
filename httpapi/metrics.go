package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are registered on the Server's own registry, never the global one.
type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge // requests being served
	conns    prometheus.Gauge // open client connections (Server.ConnState)
}

func newMetrics(reg *prometheus.Registry) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "einvoice_http_requests_total",
			Help: "HTTP requests by operation id and status code.",
		}, []string{"operation", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "einvoice_http_request_duration_seconds",
			Help:    "HTTP request latency by operation id.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"operation"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "einvoice_http_requests_in_flight",
			Help: "HTTP requests being served.",
		}),
		conns: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "einvoice_http_connections_open",
			Help: "Open client connections (counted when the server's ConnState hook is Server.ConnState).",
		}),
	}
	for _, c := range []prometheus.Collector{
		m.requests, m.duration, m.inFlight, m.conns,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register metrics: %w", err)
		}
	}
	return m, nil
}

func (m *metrics) observe(op string, status int, d time.Duration) {
	m.requests.WithLabelValues(op, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(op).Observe(d.Seconds())
}

// ConnState counts open client connections for einvoice_http_connections_open;
// set it as the http.Server's ConnState hook.
func (s *Server) ConnState(_ net.Conn, st http.ConnState) {
	switch st {
	case http.StateNew:
		s.metrics.conns.Inc()
	case http.StateClosed, http.StateHijacked:
		s.metrics.conns.Dec()
	}
}
