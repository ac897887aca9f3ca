package dev.sluice.controller.tas;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Kueue's expectations in the ungater: a Workload is not planned again while a patch it made is not seen. */
class UngateExpectationsTest {

    @Test
    @DisplayName("ungate single pod; while there are pending expectations")
    void ungateSinglePodWhileThereArePendingExpectations() {
        UngateExpectations e = new UngateExpectations();
        e.expect("ns/unit-test", "x");
        // Kueue answers errPendingUngateOps and ungates nothing: pod2 stays gated until pod1 is seen
        assertThat(e.satisfied("ns/unit-test")).isFalse();
        assertThat(e.satisfied("ns/other")).isTrue();
        e.observed("ns/unit-test", "y");
        assertThat(e.satisfied("ns/unit-test")).isFalse();
        e.observed("ns/unit-test", "x");
        assertThat(e.satisfied("ns/unit-test")).isTrue();
    }

    @Test
    void aWorkloadGoneForgetsItsExpectations() {
        UngateExpectations e = new UngateExpectations();
        e.expect("ns/wl", "a");
        e.expect("ns/wl", "b");
        e.forget("ns/wl");
        assertThat(e.satisfied("ns/wl")).isTrue();
    }
}
