package dev.sluice.bench;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Creates the Workloads on Kueue's schedule: one thread walks the plan in order, waits for each Workload's time and
 * sends it without waiting for the answer, with at most {@code inFlight} creations outstanding (the API server takes
 * them as fast as it can; no Workload is sent before its time). The JSON bodies are written before the start, and
 * each is dropped once its Workload exists.
 * <p>
 * Lag: how long after its planned time each Workload existed (the API server's answer arrived); the maximum and the
 * average are reported, with the span from the first creation sent to the last answered.
 */
final class Creator {

    /** How far creation fell behind the schedule, and how fast it went. */
    record Lag(long created, long failures, double maxSeconds, double avgSeconds, double spanSeconds) {
        double perSecond() {
            return spanSeconds <= 0 ? 0 : created / spanSeconds;
        }
    }

    /** Told when a Workload is sent (the runner measures time to admission from here). */
    interface Sent {
        void sent(BenchObjects.Planned p, long atMillis);
    }

    private static final int ATTEMPTS = 5;

    private final WorkloadApi api;
    private final List<BenchObjects.Planned> planned;
    private final byte[][] bodies;
    private volatile LongSupplier clock;
    private volatile Sent sent;
    private final Semaphore inFlight;
    private final Thread thread;
    private volatile boolean stopped;
    private final AtomicInteger created = new AtomicInteger();
    private final AtomicInteger failures = new AtomicInteger();
    private final AtomicLong lagSumMillis = new AtomicLong();
    private final AtomicLong lagMaxMillis = new AtomicLong();
    private final AtomicLong firstSentAt = new AtomicLong(-1);
    private final AtomicLong lastAnsweredAt = new AtomicLong();

    /** Writes every Workload's JSON; nothing is sent before {@link #start}. */
    Creator(WorkloadApi api, List<BenchObjects.Planned> planned, int inFlight) {
        if (inFlight < 1) {
            throw new IllegalArgumentException("--creators must be at least 1 (creations in flight), got " + inFlight);
        }
        this.api = api;
        this.planned = planned;
        this.inFlight = new Semaphore(inFlight);
        KubernetesSerialization json = new KubernetesSerialization();
        this.bodies = new byte[planned.size()][];
        for (int i = 0; i < bodies.length; i++) {
            bodies[i] = json.asJson(planned.get(i).workload()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        this.thread = new Thread(this::loop, "creator");
        this.thread.setDaemon(true);
    }

    /** Starts creating; {@code clock} reads milliseconds since the start (the plan's time base). */
    void start(LongSupplier clock, Sent sent) {
        this.clock = clock;
        this.sent = sent;
        thread.start();
    }

    void stop() {
        stopped = true;
        thread.interrupt();
    }

    /** Workloads the API server has answered for (created, or found existing after a retry). */
    int created() {
        return created.get();
    }

    Lag lag() {
        int n = created.get();
        long first = firstSentAt.get();
        return new Lag(n, failures.get(), lagMaxMillis.get() / 1000.0, n == 0 ? 0 : lagSumMillis.get() / 1000.0 / n,
                first < 0 ? 0 : (lastAnsweredAt.get() - first) / 1000.0);
    }

    private void loop() {
        for (int i = 0; i < planned.size() && !stopped; i++) {
            BenchObjects.Planned p = planned.get(i);
            try {
                waitUntil(p.createAtMillis());
                inFlight.acquire();
            } catch (InterruptedException e) {
                return;
            }
            long at = clock.getAsLong();
            firstSentAt.compareAndSet(-1, at);
            sent.sent(p, at);
            send(i, 1);
        }
    }

    /** Sleeps until the clock reads {@code millis}; never returns earlier. */
    private void waitUntil(long millis) throws InterruptedException {
        for (long wait = millis - clock.getAsLong(); wait > 0; wait = millis - clock.getAsLong()) {
            if (wait > 2) {
                Thread.sleep(wait - 1);
            } else {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1) / 4);
            }
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    private void send(int i, int attempt) {
        BenchObjects.Planned p = planned.get(i);
        api.create(p.namespace(), bodies[i]).whenComplete((r, error) -> answered(i, attempt, r, error));
    }

    /** 201: created; 409: it exists (an earlier attempt got through); anything else is retried a few times. */
    private void answered(int i, int attempt, HttpResponse<String> r, Throwable error) {
        int code = r == null ? 0 : r.statusCode();
        if (code == 201 || code == 200 || code == 409) {
            long now = clock.getAsLong();
            long lag = Math.max(0, now - planned.get(i).createAtMillis());
            lagSumMillis.addAndGet(lag);
            lagMaxMillis.accumulateAndGet(lag, Math::max);
            lastAnsweredAt.accumulateAndGet(now, Math::max);
            created.incrementAndGet();
            bodies[i] = null; // sent for good: let it go
            inFlight.release();
            return;
        }
        failures.incrementAndGet();
        if (attempt < ATTEMPTS && !stopped) {
            CompletableFuture.delayedExecutor(50L * attempt, TimeUnit.MILLISECONDS).execute(() -> send(i, attempt + 1));
            return;
        }
        System.err.println("could not create Workload " + planned.get(i).key() + ": "
                + (error != null ? error : "HTTP " + code + " " + r.body()));
        inFlight.release();
    }
}
