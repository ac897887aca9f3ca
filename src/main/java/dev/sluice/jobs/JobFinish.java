package dev.sluice.jobs;

/** A job reached a terminal state: whether it succeeded, and the reason and message of its terminal condition. */
public record JobFinish(boolean succeeded, String reason, String message) {
}
