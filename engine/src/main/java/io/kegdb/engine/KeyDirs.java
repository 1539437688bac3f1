package io.kegdb.engine;

/** Which {@link KeyDir} implementation a store uses, and how it is bulk-built on restart. */
final class KeyDirs {

    private KeyDirs() {
    }

    /** Builds a keydir from keys added in strictly ascending order. */
    interface Builder {
        void add(byte[] key, long location);

        KeyDir build();
    }

    static Builder builder(long expectedKeys) {
        CompactKeyDir.Loader loader = CompactKeyDir.loader(expectedKeys);
        return new Builder() {
            @Override
            public void add(byte[] key, long location) {
                loader.add(key, location);
            }

            @Override
            public KeyDir build() {
                return loader.build();
            }
        };
    }
}
