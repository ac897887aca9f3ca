package dev.sluice.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.engine.FairSharing;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * examples/two-team-fair-sharing in simulate: Cohort org (own 12 cpu) over Cohorts team-a (weight 2) and team-b
 * (weight 1), each with a 2-cpu ClusterQueue; team-a alone from 0s, team-b joining at 300s, both with more work
 * than the 16 cpu. Borrowing: team-a alone takes all 16. Reclaim and sharing: team-b's arrival preempts team-a
 * (Kueue's fair-sharing preemption) until the weighted shares meet, so under steady load the borrowed cpu splits
 * 2:1 (team-a 2 + 8, team-b 2 + 4). Tolerance: the time-averaged borrowing ratio in the steady window within 0.1 of
 * the weight ratio 2 (5 %), and the two team cohorts' average weighted shares within 5 % of each other (both 250:
 * 8 of 16 lendable cpu / weight 2, and 4 of 16 / weight 1). Without fair sharing the same load splits the pool evenly.
 */
class TwoTeamFairSharingExampleTest {

    static final String EXAMPLE = "examples/two-team-fair-sharing";
    /**
     * Both teams have work waiting throughout: from the first wave after team-b's arrival (300s + one 60s step) to
     * team-a's last start (its queue runs dry before 960s).
     */
    static final long STEADY_FROM = 360_000;
    static final long STEADY_TO = 900_000;

    static SimResult run(FairSharing fairSharing) throws Exception {
        ScenarioBuilder builder = new ScenarioBuilder(60_000);
        new ManifestLoader(dev.sluice.jobs.JobKinds.standard()).load(List.of(EXAMPLE), builder);
        return new Simulation(builder.build(), fairSharing).run();
    }

    @Test
    void sharesConvergeToTheWeightsUnderSteadyLoad() throws Exception {
        SimResult r = run(FairSharing.on());
        assertThat(r.finished()).isEqualTo(160);
        // borrowing: team-a alone runs 16 jobs, 14 cpu above its nominal 2
        assertThat(usageAt(r, "team-a-cq", 200_000)).isEqualTo(16_000);
        // reclaim: team-b's arrival preempts team-a
        assertThat(r.events()).anySatisfy(e -> assertThat(e.type()).isEqualTo(SimEvent.Type.Preempted));
        double a = average(r, "team-a-cq", STEADY_FROM, STEADY_TO) - 2_000;
        double b = average(r, "team-b-cq", STEADY_FROM, STEADY_TO) - 2_000;
        assertThat(a / b).as("borrowed cpu team-a : team-b (weights 2 : 1)").isCloseTo(2.0, within(0.1));
        double shareA = r.shares().cohortShares().get("team-a").average(STEADY_FROM, STEADY_TO);
        double shareB = r.shares().cohortShares().get("team-b").average(STEADY_FROM, STEADY_TO);
        assertThat(shareA).isPositive();
        assertThat(shareA / shareB).as("weighted shares of the two teams").isCloseTo(1.0, within(0.05));
    }

    @Test
    void withoutFairSharingTheWeightsDoNothing() throws Exception {
        SimResult r = run(FairSharing.OFF);
        assertThat(r.finished()).isEqualTo(160);
        assertThat(r.shares()).as("Cohort objects: the tree is reported even with fair sharing off").isNotNull();
        // team-b reclaims its nominal 2; the pool then goes to whichever head comes first: an even split, not 2:1
        double a = average(r, "team-a-cq", STEADY_FROM, STEADY_TO) - 2_000;
        double b = average(r, "team-b-cq", STEADY_FROM, STEADY_TO) - 2_000;
        assertThat(a / b).isCloseTo(1.0, within(0.1));
    }

    @Test
    void theTableNamesEachCohortsShareAndUsage() {
        Sim sim = Sim.run("--fair-sharing", EXAMPLE);
        assertThat(sim.exit()).as(sim.err()).isZero();
        assertThat(sim.out()).contains("Cohorts over").containsPattern("(?m)^team-a\\s+org\\s+2\\s+")
                .containsPattern("(?m)^team-b\\s+org\\s+1\\s+").containsPattern("(?m)^org\\s+1\\s+");
    }

    /** The queue's cpu in use at a time, from the usage steps. */
    static long usageAt(SimResult r, String cq, long t) {
        long value = 0;
        for (long[] p : series(r, cq).points()) {
            if (p[0] <= t) {
                value = p[1];
            }
        }
        return value;
    }

    /** Time-averaged cpu (milli) of a queue over [from, to]. */
    static double average(SimResult r, String cq, long from, long to) {
        List<long[]> points = series(r, cq).points();
        double sum = 0;
        for (int i = 0; i < points.size(); i++) {
            long start = Math.max(from, points.get(i)[0]);
            long end = Math.min(to, i + 1 < points.size() ? points.get(i + 1)[0] : to);
            if (end > start) {
                sum += (double) points.get(i)[1] * (end - start);
            }
        }
        return sum / (to - from);
    }

    static UsageTracker.Series series(SimResult r, String cq) {
        return r.usage().series().stream().filter(s -> s.clusterQueue().equals(cq)).findFirst().orElseThrow();
    }
}
