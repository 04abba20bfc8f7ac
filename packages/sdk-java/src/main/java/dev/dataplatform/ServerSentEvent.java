package dev.dataplatform;

/**
 * One server-sent event.
 *
 * @param id its {@code id:} line, or null
 * @param event its {@code event:} type ({@code message} by default)
 * @param data its {@code data:} text, lines joined with a newline
 */
public record ServerSentEvent(String id, String event, String data) {}
