package dev.sluice.engine.tas;

import java.util.ArrayList;
import java.util.List;

/**
 * Kueue's orders of domains (sortedDomains, sortedDomainsWithLeader, compareDomainLevelValues in
 * pkg/cache/scheduler/tas_flavor_snapshot.go). BestFit (required, preferred) takes the domains holding the most
 * slices first, LeastFreeCapacity (unconstrained, TASProfileMixed) the fewest; then fewer pods first (a domain that
 * holds the slices with the least to spare); then the domain values, so the order is total and results do not depend
 * on the order nodes were seen in.
 */
final class DomainOrder {
    private DomainOrder() {
    }

    /** Siblings of a hostname topology by hostname, else by their values level by level. */
    static int compareLevelValues(Domain a, Domain b, boolean lowestLevelIsNode) {
        if (lowestLevelIsNode && a.parent == b.parent) {
            return a.levelValues.get(a.levelValues.size() - 1).compareTo(b.levelValues.get(b.levelValues.size() - 1));
        }
        return compareValues(a.levelValues, b.levelValues);
    }

    /** Go's slices.CompareFunc with strings.Compare. */
    static int compareValues(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** Leaders first (most), then slices with a leader, pods with a leader ascending, values. */
    static List<Domain> sortedWithLeader(List<Domain> domains, boolean leastFree, boolean lowestLevelIsNode) {
        List<Domain> result = new ArrayList<>(domains);
        result.sort((a, b) -> {
            if (a.leaderCount != b.leaderCount) {
                return Integer.compare(b.leaderCount, a.leaderCount);
            }
            if (a.sliceCountWithLeader != b.sliceCountWithLeader) {
                return leastFree ? Integer.compare(a.sliceCountWithLeader, b.sliceCountWithLeader)
                        : Integer.compare(b.sliceCountWithLeader, a.sliceCountWithLeader);
            }
            if (a.podCountWithLeader != b.podCountWithLeader) {
                return Integer.compare(a.podCountWithLeader, b.podCountWithLeader);
            }
            return compareLevelValues(a, b, lowestLevelIsNode);
        });
        return result;
    }

    /** Slices (BestFit: most first; LeastFreeCapacity: fewest first), then pods ascending, then values. */
    static List<Domain> sorted(List<Domain> domains, boolean leastFree, boolean lowestLevelIsNode) {
        List<Domain> result = new ArrayList<>(domains);
        result.sort((a, b) -> {
            if (a.sliceCount != b.sliceCount) {
                return leastFree ? Integer.compare(a.sliceCount, b.sliceCount)
                        : Integer.compare(b.sliceCount, a.sliceCount);
            }
            if (a.podCount != b.podCount) {
                return Integer.compare(a.podCount, b.podCount);
            }
            return compareLevelValues(a, b, lowestLevelIsNode);
        });
        return result;
    }
}
