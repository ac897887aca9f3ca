package dev.sluice.sim;

import dev.sluice.engine.FairSharing;
import dev.sluice.jobs.JobKinds;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code simulate} sub-command: the admission engine in virtual time, with no cluster (DESIGN, "Simulator").
 * Plain Java: no CDI, no ports; {@link dev.sluice.SluiceMain} calls it before Quarkus boots.
 */
public final class SimulateCommand {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int BAD_INPUT = 2;

    private SimulateCommand() {
    }

    /** Runs the command and returns the process exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        SimOptions options;
        try {
            options = SimOptions.parse(args);
        } catch (SimOptions.UsageException e) {
            err.println("simulate: " + e.getMessage());
            err.println("Run 'simulate --help' for usage.");
            return BAD_INPUT;
        }
        if (options.help()) {
            out.print(SimOptions.USAGE);
            out.flush();
            return OK;
        }
        Scenario scenario;
        try {
            scenario = load(options, err);
        } catch (InvalidInputException e) {
            err.println("simulate: the input has " + e.errors().size() + " problem" + (e.errors().size() == 1 ? "" : "s")
                    + "; nothing was simulated:");
            for (InputError error : e.errors()) {
                err.println("  " + error.message());
            }
            return BAD_INPUT;
        }
        SimResult result;
        ForecastAccuracy accuracy;
        SimDashboard dashboard = null;
        try {
            accuracy = options.forecastAccuracy() ? new ForecastAccuracy(scenario) : null;
            Simulation sim = new Simulation(scenario, options.fairSharing() ? FairSharing.on() : FairSharing.OFF,
                    options.podsReady(), options.admissionFairSharing());
            if (accuracy != null) {
                sim.observe(accuracy);
            }
            if (options.servePort() != null) {
                try {
                    dashboard = new SimDashboard(sim, scenario, options.servePort(), options.speed());
                } catch (IOException e) {
                    err.println("simulate: cannot serve the dashboard on 127.0.0.1:" + options.servePort() + ": "
                            + e.getMessage() + "; give another port with --serve PORT (0 picks a free one)");
                    return FAILED;
                }
                err.println("simulate: the dashboard is at " + dashboard.url() + " (" + options.speed()
                        + " virtual seconds per second)");
                err.flush();
            }
            result = sim.run();
        } catch (RuntimeException e) {
            if (dashboard != null) {
                dashboard.close();
            }
            err.println("simulate: the simulation failed: " + e);
            return FAILED;
        }
        if ("json".equals(options.output())) {
            JsonOutput.write(result, out);
        } else {
            TableOutput.write(result, out);
        }
        if (accuracy != null) {
            accuracy.report(out, "json".equals(options.output()));
        }
        if (options.chart() != null) {
            try (Writer w = Files.newBufferedWriter(Path.of(options.chart()), StandardCharsets.UTF_8)) {
                SvgChart.write(result, w);
            } catch (IOException e) {
                err.println("simulate: cannot write the chart " + options.chart() + ": " + e.getMessage());
                return FAILED;
            }
        }
        if (dashboard != null) {
            serveUntilStopped(dashboard, result, err);
        }
        return OK;
    }

    /** The run is over: the page keeps showing its end until the process is stopped (Ctrl-C) or the thread interrupted. */
    private static void serveUntilStopped(SimDashboard dashboard, SimResult result, PrintStream err) {
        dashboard.ended();
        err.println("simulate: the run ended at " + Durations.seconds(result.endMillis()) + "s; the dashboard stays at "
                + dashboard.url() + " until Ctrl-C");
        err.flush();
        try {
            new java.util.concurrent.CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            dashboard.close();
        }
    }

    static Scenario load(SimOptions options) throws InvalidInputException {
        return load(options, null);
    }

    /** Builds the scenario; warnings (input simulated as a cluster treats it) go to {@code err}. */
    static Scenario load(SimOptions options, PrintStream err) throws InvalidInputException {
        ScenarioBuilder builder = new ScenarioBuilder(options.defaultDurationMillis());
        SyntheticNodes nodes = options.nodes();
        if (KueueTasBenchmark.NAME.equals(options.generate())) {
            KueueTasBenchmark.generate(options.scale(), nodes, builder); // Kueue's 640 nodes unless --nodes
        } else if (options.generate() != null) {
            KueueBenchmark.generate(KueueBenchmark.scaled(KueueBenchmark.variant(options.generate()), options.scale()),
                    builder, nodes == null ? null : nodes.topologyName());
        } else {
            new ManifestLoader(JobKinds.standard()).load(options.paths(), builder);
        }
        if (nodes != null && !KueueTasBenchmark.NAME.equals(options.generate())) {
            builder.syntheticNodes(nodes, new Origin("--nodes " + nodes.describe(), 0, null));
        }
        Scenario scenario = builder.build();
        if (err != null) {
            for (String warning : builder.warnings()) {
                err.println("simulate: warning: " + warning);
            }
        }
        return scenario;
    }
}
