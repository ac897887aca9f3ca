package dev.sluice.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/**
 * Kueue's flavor assigner ranks reclamation (every victim in another ClusterQueue) above preemption in the own queue:
 * when, at no deeper borrowing, reclaiming a borrowed workload on one flavor suffices while another flavor would need
 * a workload of the preemptor's own queue preempted, and the queue tries the next flavor before preempting, the own
 * queue keeps its workload. Random quotas, sizes, priorities, flavor order, policies, preference, fair sharing on
 * or off; the preemptor then runs on the reclaimed flavor.
 */
class ReclaimOverPreemptionProperties {

    @Property(tries = 300)
    void aReclamationThatSufficesSparesTheOwnQueue(@ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        Random rnd = new Random(seed);
        int nominal = 4 + rnd.nextInt(5); // own quota N on both flavors
        int request = 1 + rnd.nextInt(nominal); // r <= N: within nominal once room is made
        int lent = rnd.nextInt(Math.min(3, request)); // the other queue's own quota M < r on both flavors
        // X: the own workload L leaves too little room (N + M - uL < r), Y: the borrower B does (N + M - uB < r)
        int ownUse = Math.max(1, nominal + lent - request + 1 + rnd.nextInt(Math.max(1, request)));
        ownUse = Math.min(ownUse, nominal); // L within the own nominal quota
        int borrowerUse = Math.max(lent + 1, nominal + lent - request + 1 + rnd.nextInt(Math.max(1, request)));
        borrowerUse = Math.min(borrowerUse, nominal + lent);
        if (nominal + lent - ownUse >= request || nominal + lent - borrowerUse >= request) {
            return; // this draw fits somewhere without any preemption
        }
        boolean xFirst = rnd.nextBoolean();
        String x = xFirst ? "f1" : "f2";
        String y = xFirst ? "f2" : "f1";
        int preemptorPriority = 1 + rnd.nextInt(5);
        ReclaimWithinCohort reclaim = rnd.nextBoolean() ? ReclaimWithinCohort.LowerPriority : ReclaimWithinCohort.Any;
        WithinClusterQueue within = rnd.nextBoolean() ? WithinClusterQueue.LowerPriority
                : WithinClusterQueue.LowerOrNewerEqualPriority;
        BorrowWithinCohortPolicy borrow = rnd.nextBoolean() ? BorrowWithinCohortPolicy.Never
                : BorrowWithinCohortPolicy.LowerPriority;
        FlavorFungibilityPreference[] preferences = {null, FlavorFungibilityPreference.BorrowingOverPreemption,
                FlavorFungibilityPreference.PreemptionOverBorrowing};
        FlavorFungibility fungibility = new FlavorFungibility(
                rnd.nextBoolean() ? WhenCanBorrow.Borrow : WhenCanBorrow.TryNextFlavor, WhenCanPreempt.TryNextFlavor,
                preferences[rnd.nextInt(preferences.length)]);
        boolean fairSharing = rnd.nextBoolean();

        KueueCase c = new KueueCase(fairSharing, "f1", "f2")
                .cq(KueueCase.queue("own", "co", new PreemptionSpec(reclaim, borrow, null, within), fungibility, "cpu",
                        KueueCase.quota("f1", "cpu", nominal), KueueCase.quota("f2", "cpu", nominal)))
                .cq(KueueCase.queue("other", "co", null, null, "cpu",
                        KueueCase.quota("f1", "cpu", lent), KueueCase.quota("f2", "cpu", lent)))
                .lq("default", "own", "own").lq("default", "other", "other")
                .admitted("default", "own-low", "own", rnd.nextInt(preemptorPriority), "cpu", ownUse, "own", x)
                .admitted("default", "borrower", "other", rnd.nextInt(preemptorPriority), "cpu", borrowerUse, "other", y)
                .pending("default", "preemptor", "own", preemptorPriority, "cpu", request);
        String world = "N=" + nominal + " M=" + lent + " r=" + request + " uL=" + ownUse + " uB=" + borrowerUse + " X="
                + x + " " + reclaim + " " + within + " " + borrow + " " + fungibility + " fs=" + fairSharing;

        CycleResult r = c.schedule();
        assertThat(r.evictions()).as(world).extracting(e -> e.workload().name()).containsExactly("borrower");
        assertThat(r.evictions().get(0).preemptionReason()).as(world).isNotEqualTo(PreemptionReason.InClusterQueue);

        c.engine.evictionDone(r.evictions().get(0).workload(), 2_000);
        List<String> admitted = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            admitted.addAll(KueueCase.admitted(c.engine.schedule(3_000 + i)));
        }
        assertThat(admitted).as(world).contains("default/preemptor own [" + y + "]");
        assertThat(c.engine.workload(new WorkloadKey("default", "own-low")).orElseThrow().phase()).as(world)
                .isEqualTo(WorkloadPhase.ADMITTED);
    }
}
