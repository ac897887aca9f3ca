package dev.sluice.engine.tas;

import java.util.List;

/**
 * Where the pods of a pod set go, in Kueue's internal form (pkg/util/tas TopologyAssignment): the levels the values
 * are given for (only the hostname level when the topology ends with it, else all levels) and one entry per domain,
 * in lexical order of the domains' values. {@link TopologyAssignmentEncoding} gives the v1beta2 wire form.
 */
public record TopologyAssignment(List<String> levels, List<TopologyDomainAssignment> domains) {
    public TopologyAssignment {
        levels = List.copyOf(levels);
        domains = List.copyOf(domains);
    }

    /** Kueue's CountPodsInAssignment. */
    public int podCount() {
        int total = 0;
        for (TopologyDomainAssignment d : domains) {
            total += d.count();
        }
        return total;
    }
}
