package dev.sluice.readiness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.readiness.PodsReadyRules.Ready;
import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Kueue's PodsReady rules, backoff and requeue order, without a cluster. */
class PodsReadyRulesTest {

    static final WaitForPodsReady DEFAULTS = WaitForPodsReady.kueueDefaults();

    @Test
    void backoffDoublesFromTheBaseUpToTheMax() {
        assertThat(RequeueBackoff.delay(1, 60, 3600, 0)).isEqualTo(Duration.ofSeconds(60));
        assertThat(RequeueBackoff.delay(2, 60, 3600, 0)).isEqualTo(Duration.ofSeconds(120));
        assertThat(RequeueBackoff.delay(6, 60, 3600, 0)).isEqualTo(Duration.ofSeconds(1920));
        assertThat(RequeueBackoff.delay(7, 60, 3600, 0)).isEqualTo(Duration.ofSeconds(3600));
        assertThat(RequeueBackoff.delay(1000, 60, 3600, 0)).isEqualTo(Duration.ofSeconds(3600));
        // the jitter adds at most 0.01 %
        assertThat(RequeueBackoff.delay(1, 60, 3600, 0.999)).isBetween(Duration.ofSeconds(60),
                Duration.ofMillis(60_006));
        assertThatThrownBy(() -> RequeueBackoff.delay(0, 60, 3600, 0)).hasMessageContaining("starts at 1");
    }

    @Property
    void backoffNeverShrinksAndNeverPassesTheMaxByMoreThanTheJitter(@ForAll @IntRange(min = 1, max = 60) int n,
            @ForAll @IntRange(min = 0, max = 600) int base, @ForAll @IntRange(min = 0, max = 7200) int max,
            @ForAll @DoubleRange(min = 0, max = 1, maxIncluded = false) double random) {
        net.jqwik.api.Assume.that(max == 0 || base <= max); // base above max is rejected by the settings
        Duration d = RequeueBackoff.delay(n, base, max, random);
        Duration next = RequeueBackoff.delay(n + 1, base, max, 0);
        assertThat(RequeueBackoff.delay(n, base, max, 0)).isLessThanOrEqualTo(next.plusNanos(1));
        if (max > 0) {
            assertThat(d.toNanos() / 1e9).isLessThanOrEqualTo(max * (1 + RequeueBackoff.JITTER) + 1e-6);
        }
    }

    @Test
    void conditionFollowsKueue() {
        Ready start = PodsReadyRules.next(true, null, false);
        assertThat(start).isEqualTo(new Ready(false, "WaitForStart", "Not all pods are ready or succeeded"));
        Ready up = PodsReadyRules.next(true, start, true);
        assertThat(up.reason()).isEqualTo("Started");
        Ready lost = PodsReadyRules.next(true, up, false);
        assertThat(lost).isEqualTo(new Ready(false, "WaitForRecovery",
                "At least one pod has failed, waiting for recovery"));
        assertThat(PodsReadyRules.next(true, lost, false).reason()).isEqualTo("WaitForRecovery");
        assertThat(PodsReadyRules.next(true, lost, true).reason()).isEqualTo("Recovered");
        assertThat(PodsReadyRules.next(false, up, true).reason()).as("not admitted").isEqualTo("WaitForStart");
    }

    @Test
    void deadlinesFromAdmissionOrFromTheLossOfReadiness() {
        long admitted = 1_000_000;
        assertThat(PodsReadyRules.deadline(DEFAULTS, admitted, null, 0)).get()
                .isEqualTo(new PodsReadyRules.Deadline("WaitForStart", admitted + 30 * 60_000));
        Ready lost = new Ready(false, "WaitForRecovery", "");
        assertThat(PodsReadyRules.deadline(DEFAULTS, admitted, lost, admitted + 5_000)).get()
                .isEqualTo(new PodsReadyRules.Deadline("WaitForRecovery", admitted + 5_000 + 30 * 60_000));
        assertThat(PodsReadyRules.deadline(DEFAULTS, admitted, new Ready(true, "Started", ""), 0)).isEmpty();
        assertThat(PodsReadyRules.deadline(WaitForPodsReady.off(), admitted, null, 0)).isEmpty();
        WaitForPodsReady noRecovery = new WaitForPodsReady(true, Duration.ofMinutes(5), null, false, null, 60, 3600,
                null);
        assertThat(PodsReadyRules.deadline(noRecovery, admitted, lost, 0)).isEmpty();
    }

    @Test
    void timeoutRequeuesUntilTheLimitThenDeactivates() {
        WaitForPodsReady limited = new WaitForPodsReady(true, Duration.ofMinutes(5), Duration.ofMinutes(5), false,
                RequeuingTimestamp.Eviction, 10, 100, 2);
        assertThat(PodsReadyRules.onTimeout(limited, 0, 0, 0)).isEqualTo(new PodsReadyRules.Requeue(1, 10_000));
        assertThat(PodsReadyRules.onTimeout(limited, 1, 0, 0)).isEqualTo(new PodsReadyRules.Requeue(2, 20_000));
        assertThat(PodsReadyRules.onTimeout(limited, 2, 0, 0)).isInstanceOf(PodsReadyRules.Deactivate.class);
        assertThat(PodsReadyRules.onTimeout(DEFAULTS, 50, 0, 0)).as("no limit by default")
                .isEqualTo(new PodsReadyRules.Requeue(51, 3_600_000));
    }

    @Test
    void requeueOrderByEvictionOrCreation() {
        assertThat(PodsReadyRules.queueOrderMillis(DEFAULTS, 100, 900L)).isEqualTo(900);
        assertThat(PodsReadyRules.queueOrderMillis(DEFAULTS, 100, null)).isEqualTo(100);
        WaitForPodsReady creation = new WaitForPodsReady(true, Duration.ofMinutes(5), null, false,
                RequeuingTimestamp.Creation, 60, 3600, null);
        assertThat(PodsReadyRules.queueOrderMillis(creation, 100, 900L)).isEqualTo(100);
    }

    @Test
    void badSettingsAreNamed() {
        assertThatThrownBy(() -> new WaitForPodsReady(true, Duration.ZERO, null, false, null, 60, 3600, null))
                .hasMessageContaining("sluice.wait-for-pods-ready.timeout");
        assertThatThrownBy(() -> new WaitForPodsReady(true, Duration.ofMinutes(1), null, false, null, 60, 3600, -1))
                .hasMessageContaining("backoff-limit-count");
    }

    @Test
    void dueTimesComeOutInOrder() {
        DueTimes<String> due = new DueTimes<>();
        due.put("b", 20);
        due.put("a", 10);
        due.put("c", 30);
        due.put("c", 5); // moved earlier
        due.remove("b");
        assertThat(due.next()).isEqualTo(5);
        assertThat(due.takeDue(15)).containsExactly("c", "a");
        assertThat(due.size()).isZero();
    }
}
