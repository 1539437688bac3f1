package io.kegdb.jdbc.console;

/** Message text as the console shows it. */
public final class Messages {

    private Messages() {
    }

    /** The first line of a message: a driver's message is one line, a cause's may list hundreds of expected tokens. */
    public static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).trim();
    }
}
