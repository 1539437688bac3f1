package io.kegdb.jdbc.clients;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.hibernate.tool.schema.spi.SchemaManagementException;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hibernate's schema validation ({@code hibernate.hbm2ddl.auto=validate}, H2's dialect) against KegDB tables:
 * it reads INFORMATION_SCHEMA (the dialect's sequence query) and the driver's metadata (tables, columns, types),
 * passes for tables that match the entities, and fails, naming the difference, for one that does not.
 */
class HibernateSchemaValidationTest {

    @Entity(name = "Book")
    @Table(name = "BOOKS")
    public static class Book {
        @Id
        Long id;
        @Column(name = "TITLE", length = 100)
        String title;
    }

    @Entity(name = "Price")
    @Table(name = "PRICES")
    public static class Price {
        @Id
        @Column(name = "SKU", length = 20)
        String sku;
        @Column(name = "AMOUNT", precision = 10, scale = 2)
        BigDecimal amount;
    }

    @Entity(name = "Event")
    @Table(name = "EVENTS")
    public static class Event {
        @Id
        Integer id;
        @Column(name = "AT")
        LocalDateTime at;
    }

    private static SessionFactory validate(String url, Class<?>... entities) {
        Configuration cfg = new Configuration()
                .setProperty("hibernate.connection.url", url)
                .setProperty("hibernate.connection.driver_class", "io.kegdb.jdbc.KegDriver")
                .setProperty("hibernate.dialect", "org.hibernate.dialect.H2Dialect")
                .setProperty("hibernate.hbm2ddl.auto", "validate")
                .setProperty("hibernate.connection.pool_size", "2");
        for (Class<?> e : entities) {
            cfg.addAnnotatedClass(e);
        }
        return cfg.buildSessionFactory();
    }

    private static void ddl(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.executeUpdate(sql);
            }
        }
    }

    @Test
    void validatesMatchingTablesAndRefusesAMismatch() throws SQLException {
        String url = "jdbc:kegdb:mem:hibernate-validate";
        // this connection keeps the in-memory database alive between Hibernate's connections
        try (Connection keep = DriverManager.getConnection(url)) {
            ddl(keep, "CREATE TABLE BOOKS (ID BIGINT PRIMARY KEY, TITLE VARCHAR(100))",
                    "CREATE TABLE PRICES (SKU VARCHAR(20) PRIMARY KEY, AMOUNT NUMERIC(10, 2))",
                    "CREATE TABLE EVENTS (ID INT PRIMARY KEY, AT DATETIME(6))");
            try (SessionFactory sf = validate(url, Book.class, Price.class, Event.class)) {
                sf.inTransaction(s -> {
                    Book b = new Book();
                    b.id = 1L;
                    b.title = "Dune";
                    s.persist(b);
                });
                assertEquals("Dune", sf.fromSession(s -> s.find(Book.class, 1L).title));
            }
            // a column of another type fails validation, naming the column
            ddl(keep, "DROP TABLE BOOKS", "CREATE TABLE BOOKS (ID BIGINT PRIMARY KEY, TITLE BOOLEAN)");
            SchemaManagementException wrongType = assertThrows(SchemaManagementException.class,
                    () -> validate(url, Book.class).close());
            assertTrue(wrongType.getMessage().contains("TITLE") || wrongType.getMessage().contains("title"),
                    wrongType.getMessage());
            // a missing table fails validation
            ddl(keep, "DROP TABLE BOOKS");
            SchemaManagementException missing = assertThrows(SchemaManagementException.class,
                    () -> validate(url, Book.class).close());
            assertTrue(missing.getMessage().toLowerCase().contains("books"), missing.getMessage());
        }
    }
}
