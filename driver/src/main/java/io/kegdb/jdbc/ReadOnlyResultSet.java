package io.kegdb.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * The part of {@link ResultSet} a read-only cursor refuses: updating rows through the result set. KegDB's
 * result sets are {@code CONCUR_READ_ONLY}; rows change through UPDATE/INSERT/DELETE statements.
 */
abstract class ReadOnlyResultSet implements ResultSet {

    @Override
    public boolean rowUpdated() throws SQLException {
        return false;
    }

    @Override
    public boolean rowInserted() throws SQLException {
        return false;
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        return false;
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.cancelRowUpdates on a read-only result set");
    }

    @Override
    public void deleteRow() throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.deleteRow on a read-only result set");
    }

    @Override
    public void insertRow() throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.insertRow on a read-only result set");
    }

    @Override
    public void moveToCurrentRow() throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.moveToCurrentRow on a read-only result set");
    }

    @Override
    public void moveToInsertRow() throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.moveToInsertRow on a read-only result set");
    }

    @Override
    public void refreshRow() throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.refreshRow on a read-only result set");
    }

    @Override
    public void updateArray(int a0, Array a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateArray on a read-only result set");
    }

    @Override
    public void updateArray(String a0, Array a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateArray on a read-only result set");
    }

    @Override
    public void updateAsciiStream(int a0, InputStream a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateAsciiStream on a read-only result set");
    }

    @Override
    public void updateAsciiStream(String a0, InputStream a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateAsciiStream on a read-only result set");
    }

    @Override
    public void updateAsciiStream(String a0, InputStream a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateAsciiStream on a read-only result set");
    }

    @Override
    public void updateAsciiStream(int a0, InputStream a1, int a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateAsciiStream on a read-only result set");
    }

    @Override
    public void updateAsciiStream(int a0, InputStream a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateAsciiStream on a read-only result set");
    }

    @Override
    public void updateAsciiStream(String a0, InputStream a1, int a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateAsciiStream on a read-only result set");
    }

    @Override
    public void updateBigDecimal(String a0, java.math.BigDecimal a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBigDecimal on a read-only result set");
    }

    @Override
    public void updateBigDecimal(int a0, java.math.BigDecimal a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBigDecimal on a read-only result set");
    }

    @Override
    public void updateBinaryStream(String a0, InputStream a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBinaryStream on a read-only result set");
    }

    @Override
    public void updateBinaryStream(int a0, InputStream a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBinaryStream on a read-only result set");
    }

    @Override
    public void updateBinaryStream(int a0, InputStream a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBinaryStream on a read-only result set");
    }

    @Override
    public void updateBinaryStream(String a0, InputStream a1, int a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBinaryStream on a read-only result set");
    }

    @Override
    public void updateBinaryStream(int a0, InputStream a1, int a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBinaryStream on a read-only result set");
    }

    @Override
    public void updateBinaryStream(String a0, InputStream a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBinaryStream on a read-only result set");
    }

    @Override
    public void updateBlob(String a0, InputStream a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBlob on a read-only result set");
    }

    @Override
    public void updateBlob(int a0, InputStream a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBlob on a read-only result set");
    }

    @Override
    public void updateBlob(String a0, Blob a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBlob on a read-only result set");
    }

    @Override
    public void updateBlob(int a0, Blob a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBlob on a read-only result set");
    }

    @Override
    public void updateBlob(String a0, InputStream a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBlob on a read-only result set");
    }

    @Override
    public void updateBlob(int a0, InputStream a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBlob on a read-only result set");
    }

    @Override
    public void updateBoolean(int a0, boolean a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBoolean on a read-only result set");
    }

    @Override
    public void updateBoolean(String a0, boolean a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBoolean on a read-only result set");
    }

    @Override
    public void updateByte(int a0, byte a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateByte on a read-only result set");
    }

    @Override
    public void updateByte(String a0, byte a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateByte on a read-only result set");
    }

    @Override
    public void updateBytes(int a0, byte[] a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBytes on a read-only result set");
    }

    @Override
    public void updateBytes(String a0, byte[] a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateBytes on a read-only result set");
    }

    @Override
    public void updateCharacterStream(String a0, Reader a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateCharacterStream on a read-only result set");
    }

    @Override
    public void updateCharacterStream(int a0, Reader a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateCharacterStream on a read-only result set");
    }

    @Override
    public void updateCharacterStream(int a0, Reader a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateCharacterStream on a read-only result set");
    }

    @Override
    public void updateCharacterStream(String a0, Reader a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateCharacterStream on a read-only result set");
    }

    @Override
    public void updateCharacterStream(String a0, Reader a1, int a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateCharacterStream on a read-only result set");
    }

    @Override
    public void updateCharacterStream(int a0, Reader a1, int a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateCharacterStream on a read-only result set");
    }

    @Override
    public void updateClob(String a0, Clob a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateClob on a read-only result set");
    }

    @Override
    public void updateClob(int a0, Clob a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateClob on a read-only result set");
    }

    @Override
    public void updateClob(int a0, Reader a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateClob on a read-only result set");
    }

    @Override
    public void updateClob(String a0, Reader a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateClob on a read-only result set");
    }

    @Override
    public void updateClob(int a0, Reader a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateClob on a read-only result set");
    }

    @Override
    public void updateClob(String a0, Reader a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateClob on a read-only result set");
    }

    @Override
    public void updateDate(String a0, Date a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateDate on a read-only result set");
    }

    @Override
    public void updateDate(int a0, Date a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateDate on a read-only result set");
    }

    @Override
    public void updateDouble(int a0, double a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateDouble on a read-only result set");
    }

    @Override
    public void updateDouble(String a0, double a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateDouble on a read-only result set");
    }

    @Override
    public void updateFloat(int a0, float a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateFloat on a read-only result set");
    }

    @Override
    public void updateFloat(String a0, float a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateFloat on a read-only result set");
    }

    @Override
    public void updateInt(int a0, int a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateInt on a read-only result set");
    }

    @Override
    public void updateInt(String a0, int a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateInt on a read-only result set");
    }

    @Override
    public void updateLong(String a0, long a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateLong on a read-only result set");
    }

    @Override
    public void updateLong(int a0, long a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateLong on a read-only result set");
    }

    @Override
    public void updateNCharacterStream(int a0, Reader a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNCharacterStream on a read-only result set");
    }

    @Override
    public void updateNCharacterStream(String a0, Reader a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNCharacterStream on a read-only result set");
    }

    @Override
    public void updateNCharacterStream(String a0, Reader a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNCharacterStream on a read-only result set");
    }

    @Override
    public void updateNCharacterStream(int a0, Reader a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNCharacterStream on a read-only result set");
    }

    @Override
    public void updateNClob(String a0, Reader a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNClob on a read-only result set");
    }

    @Override
    public void updateNClob(int a0, Reader a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNClob on a read-only result set");
    }

    @Override
    public void updateNClob(int a0, NClob a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNClob on a read-only result set");
    }

    @Override
    public void updateNClob(String a0, NClob a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNClob on a read-only result set");
    }

    @Override
    public void updateNClob(String a0, Reader a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNClob on a read-only result set");
    }

    @Override
    public void updateNClob(int a0, Reader a1, long a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNClob on a read-only result set");
    }

    @Override
    public void updateNString(String a0, String a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNString on a read-only result set");
    }

    @Override
    public void updateNString(int a0, String a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNString on a read-only result set");
    }

    @Override
    public void updateNull(int a0) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNull on a read-only result set");
    }

    @Override
    public void updateNull(String a0) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateNull on a read-only result set");
    }

    @Override
    public void updateObject(int a0, Object a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateObject on a read-only result set");
    }

    @Override
    public void updateObject(String a0, Object a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateObject on a read-only result set");
    }

    @Override
    public void updateObject(String a0, Object a1, int a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateObject on a read-only result set");
    }

    @Override
    public void updateObject(int a0, Object a1, int a2) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateObject on a read-only result set");
    }

    @Override
    public void updateRef(int a0, Ref a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateRef on a read-only result set");
    }

    @Override
    public void updateRef(String a0, Ref a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateRef on a read-only result set");
    }

    @Override
    public void updateRow() throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateRow on a read-only result set");
    }

    @Override
    public void updateRowId(int a0, RowId a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateRowId on a read-only result set");
    }

    @Override
    public void updateRowId(String a0, RowId a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateRowId on a read-only result set");
    }

    @Override
    public void updateSQLXML(String a0, SQLXML a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateSQLXML on a read-only result set");
    }

    @Override
    public void updateSQLXML(int a0, SQLXML a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateSQLXML on a read-only result set");
    }

    @Override
    public void updateShort(int a0, short a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateShort on a read-only result set");
    }

    @Override
    public void updateShort(String a0, short a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateShort on a read-only result set");
    }

    @Override
    public void updateString(String a0, String a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateString on a read-only result set");
    }

    @Override
    public void updateString(int a0, String a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateString on a read-only result set");
    }

    @Override
    public void updateTime(int a0, Time a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateTime on a read-only result set");
    }

    @Override
    public void updateTime(String a0, Time a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateTime on a read-only result set");
    }

    @Override
    public void updateTimestamp(String a0, Timestamp a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateTimestamp on a read-only result set");
    }

    @Override
    public void updateTimestamp(int a0, Timestamp a1) throws SQLException {
        throw JdbcErrors.unsupported("ResultSet.updateTimestamp on a read-only result set");
    }
}
