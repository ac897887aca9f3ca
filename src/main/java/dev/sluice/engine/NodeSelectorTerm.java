package dev.sluice.engine;

import java.util.List;

/** A node selector term: all of its requirements must hold (terms themselves are OR-ed). */
public record NodeSelectorTerm(List<NodeSelectorRequirement> matchExpressions) {
    public NodeSelectorTerm {
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
    }
}
