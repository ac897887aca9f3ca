package dev.sluice.bench;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.sim.KueueBenchmark;
import dev.sluice.webhook.TestTls;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One benchmark run against a running API server and controller: installs the CRDs and the benchmark's queue
 * objects, waits for the controller, creates the Workloads on Kueue's schedule, plays the runner, audits every
 * change, and prints a human summary and one JSON line. Exit code 0 only when every Workload finished and the
 * auditor saw no violation.
 * <p>
 * Options ({@code --name value}): scenario (kueue-baseline | kueue-large-scale), history (finished Workloads stored
 * before the controller starts, {@link History}), scale (multiplies each stream's
 * count), api (API server URL), crds (folder of CRD YAML), setup-done-file (written once queue objects exist),
 * controller-ready-url (the controller's /q/health/ready, HTTPS), controller-ca (the certificate that URL is served with,
 * trusted alone), controller-pid-file, proxy-url (fault proxy to ask for its counts), restarts-file, timeout
 * (seconds), limit-writes (0: skip the API-server-alone measurement), creators (Workload creations in flight at once,
 * default 16).
 */
public final class LoadDriver {

    private final Map<String, String> opts;

    private LoadDriver(Map<String, String> opts) {
        this.opts = opts;
    }

    public static void main(String[] args) throws Exception {
        BenchLogging.quiet();
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        int code = new LoadDriver(opts).run();
        System.exit(code);
    }

    private String opt(String name, String def) {
        String v = opts.getOrDefault(name, def);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }

    static KubernetesClient client(String url) {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl(url).withUserAgent(ApiServer.BENCH_AGENT)
                .withRequestTimeout(30_000).withConnectionTimeout(10_000).build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    int run() throws Exception {
        String scenario = opt("scenario", null);
        KueueBenchmark.Variant base = KueueBenchmark.variant(scenario);
        if (base == null) {
            throw new IllegalArgumentException("unknown scenario " + scenario + "; use kueue-baseline or kueue-large-scale");
        }
        double scale = Double.parseDouble(opt("scale", "1"));
        KueueBenchmark.Variant variant = KueueBenchmark.scaled(base, scale);
        String api = opt("api", null);
        long timeoutMillis = (long) (Double.parseDouble(opt("timeout", "900")) * 1000);
        List<BenchObjects.Planned> planned = BenchObjects.workloads(variant);

        try (KubernetesClient client = client(api)) {
            installCrds(client, Path.of(opt("crds", "target/kubernetes")));
            QuotaAudit audit = new QuotaAudit();
            client.resource(BenchObjects.flavor()).create();
            for (String name : BenchObjects.queueNames(variant)) {
                client.resource(BenchObjects.namespace(name)).create();
                ClusterQueue cq = BenchObjects.clusterQueue(name);
                client.resource(cq).create();
                audit.clusterQueue(cq);
                client.resource(BenchObjects.localQueue(name)).create();
            }
            int history = Integer.parseInt(opt("history", "0"));
            if (history > 0) {
                double took = History.seed(new WorkloadApi(api), BenchObjects.queueNames(variant), history);
                System.out.printf(Locale.ROOT, "history: %d finished Workloads stored in %.1f s%n", history, took);
            }
            String done = opts.get("setup-done-file");
            if (done != null) {
                Files.writeString(Path.of(done), "ok\n");
            }
            long controllerStarted = System.nanoTime();
            RssSampler rss = new RssSampler(opts.get("controller-pid-file"));
            if (history > 0) {
                rss.start(); // the start-up (paged lists of the whole history) is what this scenario measures
            }
            awaitReady(opts.get("controller-ready-url"), opts.get("controller-ca"), history > 0 ? 600_000 : 180_000);
            if (history > 0) {
                rss.sample();
                System.out.printf(Locale.ROOT, "history: controller ready %.1f s after its start with %d Workloads "
                        + "stored; peak RSS so far %.1f MiB%n", (System.nanoTime() - controllerStarted) / 1e9, history,
                        rss.peakMiB());
            } else {
                rss.start();
            }

            WorkloadApi workloads = new WorkloadApi(api);
            Creator creator = new Creator(workloads, planned, Integer.parseInt(opt("creators", "16")));
            long apiPid = Long.parseLong(opt("apiserver-pid", "-1"));
            rss.sample();
            Cpu cpuAtStart = cpuNow(rss, apiPid); // what start-up and setup took, left out of "during the run"
            long start = System.nanoTime();
            Runner runner = new Runner(workloads, planned, start);
            double neverReady = Double.parseDouble(opt("never-ready", "0"));
            if (neverReady > 0) {
                runner.neverReady(neverReady);
                long share = planned.stream().filter(p -> runner.isNeverReady(p.key())).count();
                System.out.printf("never-ready workloads: %d of %d (their pods never get ready; each must be "
                        + "evicted for PodsReadyTimeout, requeued and deactivated)%n", share, planned.size());
            }
            // one watch feeds the auditor and the runner, in the API server's order
            WorkloadWatch watch = new WorkloadWatch(workloads, e -> {
                if ("DELETED".equals(e.type())) {
                    audit.deleted(e.workload().key());
                } else {
                    audit.workload(e.workload().key(), e.workload());
                }
                runner.changed(e);
            }).start();
            System.out.printf(Locale.ROOT, "%s: %d ClusterQueues in %d cohorts, %d Workloads%n", scenario,
                    variant.cohorts() * variant.queuesPerCohort(), variant.cohorts(), planned.size());

            creator.start(runner::now, (p, at) -> runner.created(p.key(), at));
            long deadline = timeoutMillis;
            // HISTO_FILE (bench/lib.sh): the controller's live-object histogram (jcmd forces a full GC first) at the
            // end of the run, and with --histo-at S also S seconds in, while Workloads are pending
            String histoFile = opts.get("histo-file");
            int histoAt = Integer.parseInt(opt("histo-at", "0"));
            long nextProgress = 10_000;
            while (runner.finished() < planned.size() && runner.now() < deadline) {
                Thread.sleep(100);
                if (histoFile != null && histoAt > 0 && runner.now() >= histoAt * 1000L) {
                    histoAt = 0; // once
                    System.out.printf(Locale.ROOT, "histogram at t=%ds: created %d admitted %d finished %d%n",
                            runner.now() / 1000, creator.created(), runner.admissions(), runner.finished());
                    histogram(rss.pid(), Path.of(histoFile + ".mid"));
                }
                if (runner.now() >= nextProgress) {
                    System.err.printf(Locale.ROOT, "t=%ds created %d admitted %d finished %d%n", nextProgress / 1000,
                            creator.created(), runner.admissions(), runner.finished());
                    nextProgress += 10_000;
                }
            }
            creator.stop();
            long end = runner.lastFinishedAt();
            boolean complete = runner.finished() >= planned.size();
            // the last changes may still be on their way to the auditor: let them arrive before the final checks
            // (after a timeout there is nothing to wait for)
            List<String> keys = planned.stream().map(BenchObjects.Planned::key).toList();
            long catchUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(complete ? 10 : 0);
            List<String> notFinished = audit.notFinished(keys);
            while (!notFinished.isEmpty() && System.nanoTime() < catchUp) {
                Thread.sleep(200);
                notFinished = audit.notFinished(keys);
            }
            rss.sample();
            Cpu cpu = cpuNow(rss, apiPid);
            String nmt = opts.get("nmt-file");
            if (nmt != null && rss.pid() > 0) {
                new ProcessBuilder("jcmd", Long.toString(rss.pid()), "VM.native_memory", "summary")
                        .redirectErrorStream(true).redirectOutput(Path.of(nmt).toFile()).start().waitFor(30, TimeUnit.SECONDS);
            }
            if (histoFile != null && rss.pid() > 0) {
                histogram(rss.pid(), Path.of(histoFile));
            }
            Writes writes = Writes.read(api);
            String faults = opts.containsKey("proxy-url") ? httpGet(opts.get("proxy-url") + "/bench/faults") : null;
            String restarts = opts.containsKey("restarts-file") && Files.exists(Path.of(opts.get("restarts-file")))
                    ? Files.readString(Path.of(opts.get("restarts-file"))).trim() : "0";
            watch.close();
            runner.close();

            Limit limit = null;
            int limitWrites = Integer.parseInt(opt("limit-writes", "0"));
            if (limitWrites > 0) {
                rss.stopController();
                limit = Limit.measure(client, limitWrites);
            }
            Report report = new Report(scenario, scale, planned, runner, end, complete, rss.peakMiB(), writes, audit,
                    notFinished, limit, faults, restarts, variant, cpu, cpu.minus(cpuAtStart), creator.lag());
            report.print(System.out);
            long expectedDeactivated = planned.stream().filter(p -> runner.isNeverReady(p.key())).count();
            if (neverReady > 0) {
                System.out.printf("deactivated: %d of %d never-ready workloads%n", runner.deactivated(),
                        expectedDeactivated);
            }
            return complete && notFinished.isEmpty() && audit.violations().isEmpty()
                    && runner.deactivated() == expectedDeactivated ? 0 : 1;
        }
    }

    static void installCrds(KubernetesClient client, Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".kueue.x-k8s.io-v1.yml")).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no kueue.x-k8s.io CRDs in " + dir + "; build the jar first (./mvnw package)");
        }
        for (Path f : files) {
            CustomResourceDefinition crd;
            try (InputStream in = Files.newInputStream(f)) {
                crd = client.apiextensions().v1().customResourceDefinitions().load(in).item();
            }
            client.resource(crd).create();
        }
    }

    /** Until the URL answers 200; over HTTPS trusting only the certificate in {@code caFile}, when given. */
    static void awaitReady(String url, String caFile, long timeoutMillis) throws Exception {
        if (url == null) {
            return;
        }
        HttpClient http = caFile == null ? Http.CLIENT : TestTls.client(Path.of(caFile));
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2))
                        .build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("controller not ready at " + url + " after " + timeoutMillis / 1000 + " s");
    }

    /** Built on first use, after {@link BenchLogging#quiet} (the JDK's client fixes its debug level when built). */
    private static final class Http {
        static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** The live objects of the controller by class, then the heap after that full GC, into one file. */
    static void histogram(long pid, Path file) throws Exception {
        Path heap = Path.of(file + ".heap");
        new ProcessBuilder("jcmd", Long.toString(pid), "GC.class_histogram").redirectErrorStream(true)
                .redirectOutput(file.toFile()).start().waitFor(60, TimeUnit.SECONDS);
        new ProcessBuilder("jcmd", Long.toString(pid), "GC.heap_info").redirectErrorStream(true)
                .redirectOutput(heap.toFile()).start().waitFor(30, TimeUnit.SECONDS);
        Files.writeString(file, Files.readString(heap), java.nio.file.StandardOpenOption.APPEND);
        Files.delete(heap);
    }

    static String httpGet(String url) throws Exception {
        return Http.CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** CPU seconds (user + system) used by the controller(s), the API server and this driver. */
    record Cpu(double controller, double apiServer, double driver) {
        Cpu minus(Cpu earlier) {
            return new Cpu(controller - earlier.controller, apiServer - earlier.apiServer, driver - earlier.driver);
        }
    }

    /** Each process's CPU seconds since it started. */
    static Cpu cpuNow(RssSampler rss, long apiPid) {
        return new Cpu(rss.controllerCpuSeconds(), apiPid > 0 ? RssSampler.cpuTicks(apiPid) / 100.0 : 0,
                ProcessHandle.current().info().totalCpuDuration().map(d -> d.toMillis() / 1000.0).orElse(0.0));
    }

    /** The controller's writes as the API server counted them. */
    record Writes(long total, String byKind, String workloadStatusByReasons) {
        static Writes read(String api) throws Exception {
            String json = httpGet(api + "/bench/writes");
            int i = json.indexOf("\"total\": ") + 9;
            long total = Long.parseLong(json.substring(i, json.indexOf(',', i)).trim());
            int reasons = json.indexOf("\"workloadStatusByReasons\": ") + 27;
            int byKind = json.indexOf(", \"byKind\": ");
            return new Writes(total, json.substring(byKind + 12, json.length() - 1), json.substring(reasons, byKind));
        }
    }
}
