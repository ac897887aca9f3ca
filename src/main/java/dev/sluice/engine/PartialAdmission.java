package dev.sluice.engine;

import java.util.function.Function;

/**
 * Partial admission via minCount, like Kueue's pod set reducer: shrink every pod set that allows it, all in
 * proportion, and binary-search the smallest shrink that can be admitted (fits, or fits after preemption).
 */
final class PartialAdmission {
    private PartialAdmission() {
    }

    /**
     * The attempt at the least shrunk counts that succeeds, or null. attempt returns null where the counts
     * cannot be admitted.
     */
    static <T> T search(WorkloadSpec wl, int[] full, Function<int[], T> attempt) {
        int n = full.length;
        long[] deltas = new long[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            Integer min = wl.podSets().get(i).minCount();
            deltas[i] = min == null ? 0 : full[i] - min;
            total += deltas[i];
        }
        if (total == 0) {
            return null;
        }
        T smallest = attempt.apply(counts(full, deltas, total, total));
        if (smallest == null) {
            return null;
        }
        long lo = 1;
        long hi = total;
        T best = smallest;
        while (lo < hi) {
            long mid = (lo + hi) >>> 1;
            T r = attempt.apply(counts(full, deltas, total, mid));
            if (r != null) {
                hi = mid;
                best = r;
            } else {
                lo = mid + 1;
            }
        }
        return best;
    }

    private static int[] counts(int[] full, long[] deltas, long total, long step) {
        int[] out = new int[full.length];
        for (int i = 0; i < full.length; i++) {
            out[i] = (int) (full[i] - deltas[i] * step / total);
        }
        return out;
    }
}
