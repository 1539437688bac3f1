package io.kegdb.sql.calcite;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import org.apache.calcite.runtime.ArrayBindable;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Typed;
import org.codehaus.commons.compiler.CompileException;
import org.codehaus.janino.ClassLoaderIClassLoader;
import org.codehaus.janino.Java;
import org.codehaus.janino.Parser;
import org.codehaus.janino.Scanner;
import org.codehaus.janino.UnitCompiler;
import org.codehaus.janino.util.ClassFile;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Compiles the Java that Calcite generated for a plan (a {@link Bindable} class) with Janino, as Calcite's
 * {@code EnumerableInterpretable} does, but within the statement's {@link Deadline}. Janino cannot be stopped
 * part way, so a statement with a time limit (a query timeout) has its code compiled on a compiler thread and
 * waits for it only until its deadline (the time limit or a cancel), then fails with HYT00; an abandoned
 * compilation finishes on its thread (its size is bounded by the plan's, which the planning budget bounds) and
 * its classes, referenced by nothing, are collected. The threads end after {@link #IDLE_SECONDS} without work.
 * A statement without a time limit compiles on its own thread, and a cancel stops it when the compilation ends.
 */
final class PlanCompiler {

    /** How a class's Java source becomes classes; Janino's unless a test slows it down. */
    @FunctionalInterface
    interface Compilation {
        Bindable<?> compile(String className, String source) throws Exception;
    }

    static final int IDLE_SECONDS = 30;
    /**
     * Janino compiles nested expressions recursively; a statement may have been planned on a thread with a large
     * stack (docs/SQL.md, nesting depth), so its code is compiled on one larger than the JVM's default.
     */
    private static final long STACK_BYTES = 16L << 20;
    /** How often a waiting statement looks at its deadline (a cancel has no clock to wait on). */
    private static final long WAIT_SLICE_MILLIS = 5;
    private static final String FAILED = "Error while compiling generated Java code:\n";

    /** The JVM's compiler threads, shared by every database: compiling is CPU work, so one per processor. */
    private static final ThreadPoolExecutor SHARED = threads(Runtime.getRuntime().availableProcessors(),
            IDLE_SECONDS);

    static final Compilation JANINO_COMPILATION = PlanCompiler::janino;
    static final PlanCompiler JANINO = new PlanCompiler(SHARED, JANINO_COMPILATION);

    private final ThreadPoolExecutor threads;
    private final Compilation compilation;

    PlanCompiler(ThreadPoolExecutor threads, Compilation compilation) {
        this.threads = threads;
        this.compilation = compilation;
    }

    /** At most {@code count} daemon threads, each ending after {@code idleSeconds} without work. */
    static ThreadPoolExecutor threads(int count, int idleSeconds) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(count, count, idleSeconds, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(null, r, "kegdb-plan-compiler-" + n.incrementAndGet(), STACK_BYTES);
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * The plan's {@link Bindable}: an instance of class {@code className} declared with {@code classBody}, an
     * {@link ArrayBindable} unless the plan's rows have one field (as Calcite's own compilation declares it).
     *
     * @throws SqlError HYT00 if the deadline comes first
     * @throws RuntimeException "Error while compiling generated Java code" (as Calcite reports it) if the code
     *                          does not compile
     */
    Bindable<?> compile(String className, String classBody, int fieldCount, Deadline deadline) throws SqlError {
        String source = "public final class " + className + " implements "
                + (fieldCount == 1 ? Bindable.class.getCanonicalName() + ", " + Typed.class.getCanonicalName()
                        : ArrayBindable.class.getCanonicalName())
                + " {\n" + classBody + "\n}";
        deadline.check();
        if (!deadline.hasTimeLimit()) {
            // No clock to stop at: handing the compile to another thread would only add two thread wake-ups,
            // about 10 ms a planning on a loaded machine (SeenOnceBench, docs/BENCHMARKS.md). A cancel is seen
            // when the compile ends.
            Bindable<?> bindable = onThisThread(className, source, classBody);
            deadline.check();
            return bindable;
        }
        Future<Bindable<?>> compiled = threads.submit(() -> compilation.compile(className, source));
        try {
            while (true) {
                try {
                    return compiled.get(WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    deadline.check();
                }
            }
        } catch (SqlError e) {
            // One not started yet never runs; a running one is not interrupted (Janino does not heed it, and an
            // interrupt could reach the class loading it does) and its result is dropped.
            compiled.cancel(false);
            throw e;
        } catch (InterruptedException e) {
            compiled.cancel(false);
            Thread.currentThread().interrupt();
            throw new SqlError(SqlState.TIMEOUT_EXPIRED, "the statement was interrupted while it was compiled", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error error) {
                throw error; // out of memory, stack overflow: as if compiled on this thread
            }
            throw new IllegalStateException(FAILED + classBody, cause);
        }
    }

    private Bindable<?> onThisThread(String className, String source, String classBody) {
        try {
            return compilation.compile(className, source);
        } catch (Exception e) {
            throw new IllegalStateException(FAILED + classBody, e);
        }
    }

    /** Compiles {@code source} with Janino on this (compiler) thread and makes one instance of the class. */
    private static Bindable<?> janino(String className, String source) throws CompileException, IOException,
            ReflectiveOperationException {
        Java.AbstractCompilationUnit unit = new Parser(new Scanner(null, new StringReader(source)))
                .parseAbstractCompilationUnit();
        List<ClassFile> files = new ArrayList<>();
        // A new view of the library classes each time, as Janino's own compiler does (one kept per thread was
        // measured: it did not change the compilation's share of SeenOnceBench's samples).
        new UnitCompiler(unit, new ClassLoaderIClassLoader(PlanCompiler.class.getClassLoader()))
                .compileUnit(false, false, false, files);
        Map<String, byte[]> bytes = new HashMap<>();
        for (ClassFile f : files) {
            bytes.put(f.getThisClassName(), f.toByteArray());
        }
        return (Bindable<?>) new GeneratedClasses(bytes).loadClass(className).getDeclaredConstructors()[0]
                .newInstance();
    }

    /** The classes of one compiled plan; they go when nothing references the plan any more. */
    private static final class GeneratedClasses extends ClassLoader {
        private final Map<String, byte[]> bytes;

        GeneratedClasses(Map<String, byte[]> bytes) {
            super(PlanCompiler.class.getClassLoader());
            this.bytes = bytes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = bytes.get(name);
            if (b == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, b, 0, b.length);
        }
    }
}
