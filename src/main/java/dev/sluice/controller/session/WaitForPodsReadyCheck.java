package dev.sluice.controller.session;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Bad {@code sluice.wait-for-pods-ready.*} values stop the start with the property's name, not the first session. */
@ApplicationScoped
class WaitForPodsReadyCheck {
    void onStart(@Observes StartupEvent event, WaitForPodsReadyConfig config) {
        config.settings();
    }
}
