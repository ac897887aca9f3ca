package dev.sluice.bridge;

import java.util.Optional;

/**
 * What priority classes exist: the controller answers from its informer caches, the simulator from its input
 * files.
 */
public interface PriorityClasses {

    /** Value of the kueue.x-k8s.io WorkloadPriorityClass, if it exists. */
    Optional<Integer> workloadPriorityClass(String name);

    /** Value of the scheduling.k8s.io PriorityClass, if it exists. */
    Optional<Integer> priorityClass(String name);

    /** The PriorityClass with globalDefault true, if any: its name and value. */
    Optional<Named> globalDefault();

    record Named(String name, int value) {
    }
}
