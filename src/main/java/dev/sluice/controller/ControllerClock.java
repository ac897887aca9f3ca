package dev.sluice.controller;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** The controller's clock (condition times, waitForPodsReady timers): UTC; tests put a clock of their own in its place. */
@Dependent
public class ControllerClock {

    @Produces
    @Singleton
    @DefaultBean
    Clock clock() {
        return Clock.systemUTC();
    }
}
