/**
 * KegDB's meters, one model for every layer: a {@link io.kegdb.engine.meter.Meter} has a stable name, a
 * {@link io.kegdb.engine.meter.MeterType type}, a {@link io.kegdb.engine.meter.MeterUnit unit}, tags and a
 * value read when it is exported. Counters on hot paths are {@link java.util.concurrent.atomic.LongAdder}s
 * and {@link io.kegdb.engine.meter.Histogram}s (no lock, no allocation); everything else is read from the
 * store's own state at export time. The JDK-only ways out live here too: JMX
 * ({@link io.kegdb.engine.meter.MeterMBean}) and the Prometheus text format
 * ({@link io.kegdb.engine.meter.PrometheusText}). The package depends on the JDK alone, so the engine, SQL
 * and Raft layers all describe their meters with it.
 */
package io.kegdb.engine.meter;
