package com.example.chat;

/** Where the application posts messages (a chat service's client, in a real application). */
@FunctionalInterface
public interface ChatRoom {

    /**
     * Posts one message.
     *
     * @param message the text to post
     * @return {@code true} when the room took it, {@code false} when it is busy and the message should be sent later
     */
    boolean post(String message);
}
