package dev.sluice.engine.tas;

import java.util.List;

/** count pods on the domain given by its value at each level of the assignment (Kueue's utiltas.TopologyDomainAssignment). */
public record TopologyDomainAssignment(List<String> values, int count) {
    public TopologyDomainAssignment {
        values = List.copyOf(values);
    }
}
