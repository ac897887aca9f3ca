package dev.sluice.sim;

import dev.sluice.engine.AdmissionFairSharing;
import dev.sluice.readiness.WaitForPodsReady;
import java.util.ArrayList;
import java.util.List;

/** The {@code simulate} command line, parsed by hand (no CLI library: it would break the operator's native build). */
public record SimOptions(boolean help, String output, long defaultDurationMillis, String chart, String generate,
                         double scale, List<String> paths, boolean forecastAccuracy, boolean fairSharing,
                         WaitForPodsReady podsReady, AdmissionFairSharing admissionFairSharing, Integer servePort,
                         double speed, SyntheticNodes nodes) {

    /** {@code --serve} without a port. */
    public static final int DEFAULT_SERVE_PORT = 8080;
    /** Virtual seconds per wall second under {@code --serve} unless {@code --speed} says otherwise. */
    public static final double DEFAULT_SPEED = 10;

    public static final String USAGE = """
            Usage: simulate [options] PATH...
                   simulate [options] --generate kueue-baseline|kueue-large-scale|kueue-tas [--scale F]

            Runs the admission engine in virtual time on queue objects and jobs, with no cluster.
            PATH is a YAML file or a folder of them (read in name order). Objects are created in input
            order; jobs are submitted at 0 unless annotated.

            Reads: ResourceFlavor, ClusterQueue, LocalQueue, WorkloadPriorityClass, Workload, Cohort,
            Topology (kueue.x-k8s.io/v1beta2 or v1beta1), PriorityClass (scheduling.k8s.io/v1),
            Namespace and Node (v1), and the job kinds (Job, JobSet, ...).
            Annotations on jobs and Workloads:
              sluice.dev/simulated-duration: 90s    how long it runs once admitted
              sluice.dev/simulated-submit-at: 30s   when it is submitted (offset from the start)
              sluice.dev/simulated-ready-after: 2m  when its pods are all ready after each admission
                                                    (default at once), or never; it runs its duration from then
              sluice.dev/simulated-ready-lost-after: 10m  a pod fails that long after PodsReady and is not
                                                    replaced: it never finishes; the recovery timeout evicts it

            Options:
              -o, --output table|json   timeline as a table (default) or one JSON object per line,
                                        ending with a Summary object
              --default-duration D      run time of jobs without the annotation (default 60s)
              --chart FILE.svg          also draw quota usage and one bar per workload
              --generate NAME           Kueue's scheduler benchmark instead of PATHs:
                                        kueue-baseline (15,000 workloads), kueue-large-scale (50,000) or
                                        kueue-tas (15,000 with topology requests, on 640 nodes unless --nodes)
              --scale F                 with --generate: multiply each workload stream by F (0 < F <= 1)
              --nodes KEY=V,...         a synthetic cluster for topology-aware scheduling: blocks=N,racks=N,hosts=N
                                        (each at least 1) and per node allocatable, e.g. cpu=96,nvidia.com/gpu=8
                                        (defaults cpu=96,memory=256Gi,pods=110); the flavors with
                                        spec.topologyName equal to the Topology place on them
              --node-levels B,R,H       the node labels of the three levels (default
                                        cloud.google.com/gce-topology-block,cloud.google.com/gce-topology-subblock,
                                        kubernetes.io/hostname)
              --topology NAME           the name of --nodes' Topology (default "default")
              --forecast-accuracy       also forecast each workload's admission once a virtual second (as the
                                        controller does, from observed run times and from the exact ones) and
                                        print how far the forecast at submission was from the actual admission
              --fair-sharing            run the engine with Kueue's fair sharing on (default strategies)
              --admission-fair-sharing  Kueue's admissionFairSharing on: in ClusterQueues with admissionScope
                                        UsageBasedAdmissionFairSharing, LocalQueues with less recent usage go first;
                                        prints each LocalQueue's usage (needs --usage-half-life)
              --usage-half-life D       usageHalfLifeTime: consumed usage halves every D (0: reset at once)
              --usage-sampling-interval D  usageSamplingInterval (default 5m, Kueue's)
              --pods-ready-timeout D    waitForPodsReady timeout (default 30m, Kueue's): a job not ready by then
                                        is evicted (PodsReadyTimeout) and requeued after a backoff
              --recovery-timeout D      waitForPodsReady recoveryTimeout (default: the timeout): a job whose
                                        readiness is lost that long is evicted (PodsReadyTimeout)
              --backoff-base-seconds N  first backoff (default 60), doubling up to --backoff-max-seconds (3600)
              --backoff-limit-count N   requeues before the workload is deactivated (default: no limit)
              --block-admission         admit nothing while an admitted workload is not ready
              --no-wait-for-pods-ready  switch waitForPodsReady off
              --serve [PORT]            show the run live in the dashboard at http://127.0.0.1:PORT/dashboard/
                                        (default 8080; 0 picks a free port), paced by --speed; the results are
                                        printed when the run ends, and the page stays up until Ctrl-C
              --speed X                 with --serve: X virtual seconds per second (default 10)
              -h, --help                this text

            Exit codes: 0 done, 2 bad usage or bad input (nothing simulated), 1 internal error.
            """;

    /** Thrown for a command line that cannot be run; the message says what is wrong. */
    public static final class UsageException extends Exception {
        public UsageException(String message) {
            super(message);
        }
    }

    public static SimOptions parse(String[] args) throws UsageException {
        boolean help = false;
        String output = "table";
        long defaultDuration = 60_000;
        String chart = null;
        String generate = null;
        Double scale = null;
        boolean forecastAccuracy = false;
        List<String> paths = new ArrayList<>();
        boolean onlyPaths = false;
        boolean fairSharing = false;
        boolean admissionFairSharing = false;
        Long halfLife = null;
        Long samplingInterval = null;
        WaitForPodsReady kueue = WaitForPodsReady.kueueDefaults();
        boolean podsReadyOn = true;
        boolean block = false;
        java.time.Duration timeout = kueue.timeout();
        java.time.Duration recovery = null;
        int base = kueue.backoffBaseSeconds();
        int max = kueue.backoffMaxSeconds();
        Integer limit = null;
        Integer servePort = null;
        Double speed = null;
        String nodes = null;
        String nodeLevels = null;
        String topology = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (onlyPaths || !a.startsWith("-") || a.equals("-")) {
                paths.add(a);
                continue;
            }
            String name = a;
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            }
            switch (name) {
                case "--" -> onlyPaths = true;
                case "--forecast-accuracy" -> forecastAccuracy = true;
                case "-h", "--help" -> help = true;
                case "--fair-sharing" -> fairSharing = true;
                case "--admission-fair-sharing" -> admissionFairSharing = true;
                case "--usage-half-life" -> halfLife = duration(value != null ? value : next(args, ++i, name), name);
                case "--usage-sampling-interval" ->
                        samplingInterval = duration(value != null ? value : next(args, ++i, name), name);
                case "-o", "--output" -> {
                    output = value != null ? value : next(args, ++i, name);
                    if (!output.equals("table") && !output.equals("json")) {
                        throw new UsageException("--output must be table or json, got \"" + output + "\"");
                    }
                }
                case "--default-duration" -> {
                    String d = value != null ? value : next(args, ++i, name);
                    try {
                        defaultDuration = Durations.parseMillis(d);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--default-duration: " + e.getMessage());
                    }
                }
                case "--chart" -> chart = value != null ? value : next(args, ++i, name);
                case "--generate" -> {
                    generate = value != null ? value : next(args, ++i, name);
                    if (KueueBenchmark.variant(generate) == null && !KueueTasBenchmark.NAME.equals(generate)) {
                        throw new UsageException("--generate must be kueue-baseline, kueue-large-scale or kueue-tas,"
                                + " got \"" + generate + "\"");
                    }
                }
                case "--scale" -> {
                    String s = value != null ? value : next(args, ++i, name);
                    try {
                        scale = Double.parseDouble(s);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--scale must be a number, got \"" + s + "\"");
                    }
                    if (!(scale > 0 && scale <= 1)) {
                        throw new UsageException("--scale must be greater than 0 and at most 1, got " + s);
                    }
                }
                case "--pods-ready-timeout" -> {
                    String t = value != null ? value : next(args, ++i, name);
                    try {
                        timeout = java.time.Duration.ofMillis(Durations.parseMillis(t));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--pods-ready-timeout: " + e.getMessage());
                    }
                }
                case "--recovery-timeout" -> {
                    String t = value != null ? value : next(args, ++i, name);
                    try {
                        recovery = java.time.Duration.ofMillis(Durations.parseMillis(t));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--recovery-timeout: " + e.getMessage());
                    }
                }
                case "--backoff-base-seconds" -> base = count(value != null ? value : next(args, ++i, name), name);
                case "--backoff-max-seconds" -> max = count(value != null ? value : next(args, ++i, name), name);
                case "--backoff-limit-count" -> limit = count(value != null ? value : next(args, ++i, name), name);
                case "--nodes" -> nodes = value != null ? value : next(args, ++i, name);
                case "--node-levels" -> nodeLevels = value != null ? value : next(args, ++i, name);
                case "--topology" -> topology = value != null ? value : next(args, ++i, name);
                case "--block-admission" -> block = true;
                case "--no-wait-for-pods-ready" -> podsReadyOn = false;
                case "--serve" -> {
                    // the port is optional: taken only when the next word is a number
                    String p = value != null ? value
                            : i + 1 < args.length && args[i + 1].matches("[0-9]+") ? args[++i] : null;
                    servePort = p == null ? DEFAULT_SERVE_PORT : port(p);
                }
                case "--speed" -> {
                    String v = value != null ? value : next(args, ++i, name);
                    try {
                        speed = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--speed must be a number of virtual seconds per second, got \""
                                + v + "\"");
                    }
                    if (!(speed > 0) || speed.isInfinite()) {
                        throw new UsageException("--speed must be greater than 0, got " + v);
                    }
                }
                default -> throw new UsageException("unknown option " + a);
            }
        }
        if (!help) {
            if (generate != null && !paths.isEmpty()) {
                throw new UsageException("give either PATHs or --generate, not both");
            }
            if (generate == null && paths.isEmpty()) {
                throw new UsageException("no input: give at least one PATH, or --generate");
            }
            if (speed != null && servePort == null) {
                throw new UsageException("--speed only applies with --serve");
            }
            if (scale != null && generate == null) {
                throw new UsageException("--scale only applies with --generate");
            }
        }
        if (nodes == null && (nodeLevels != null || topology != null)) {
            throw new UsageException((nodeLevels != null ? "--node-levels" : "--topology") + " only applies with --nodes");
        }
        SyntheticNodes synthetic = nodes == null ? null : SyntheticNodes.parse(nodes, nodeLevels, topology);
        if (!admissionFairSharing && (halfLife != null || samplingInterval != null)) {
            throw new UsageException((halfLife != null ? "--usage-half-life" : "--usage-sampling-interval")
                    + " only applies with --admission-fair-sharing");
        }
        if (admissionFairSharing && halfLife == null && !help) {
            throw new UsageException("--admission-fair-sharing needs --usage-half-life D (Kueue's usageHalfLifeTime "
                    + "is required; 0 resets usage at once)");
        }
        AdmissionFairSharing afs;
        try {
            afs = !admissionFairSharing || halfLife == null ? AdmissionFairSharing.OFF
                    : AdmissionFairSharing.on(halfLife, samplingInterval == null
                            ? AdmissionFairSharing.DEFAULT_SAMPLING_INTERVAL_MILLIS : samplingInterval);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage().replace("admissionFairSharing.usageSamplingInterval",
                    "--usage-sampling-interval").replace("admissionFairSharing.usageHalfLifeTime", "--usage-half-life"));
        }
        WaitForPodsReady podsReady;
        try {
            podsReady = new WaitForPodsReady(podsReadyOn, timeout, recovery == null ? timeout : recovery, block, kueue.requeuingTimestamp(), base, max,
                    limit);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage().replace("sluice.wait-for-pods-ready.", "--"));
        }
        return new SimOptions(help, output, defaultDuration, chart, generate, scale == null ? 1.0 : scale,
                List.copyOf(paths), forecastAccuracy, fairSharing, podsReady, afs, servePort,
                speed == null ? DEFAULT_SPEED : speed, synthetic);
    }

    private static long duration(String text, String option) throws UsageException {
        try {
            return Durations.parseMillis(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    private static int count(String text, String option) throws UsageException {
        try {
            int n = Integer.parseInt(text.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " must be a whole number of at least 0, got \"" + text + "\"");
        }
    }

    private static int port(String text) throws UsageException {
        try {
            int p = Integer.parseInt(text.trim());
            if (p < 0 || p > 65_535) {
                throw new NumberFormatException();
            }
            return p;
        } catch (NumberFormatException e) {
            throw new UsageException("--serve: the port must be a number from 0 to 65535, got \"" + text + "\"");
        }
    }

    private static String next(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }
}
