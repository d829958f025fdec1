-- PIVOT (Calcite's and Feldera's): the other columns group, each value and measure is
-- a filtered aggregate; values named or written, several FOR columns, a renamed PIVOT;
-- UNPIVOT, a UNION ALL of a SELECT per column.
CREATE TABLE emp (ename VARCHAR, deptno INT, job VARCHAR, sal INT);
CREATE VIEW by_job AS SELECT * FROM (SELECT deptno, job, sal FROM emp)
  PIVOT (SUM(sal) AS s, COUNT(*) AS n FOR job IN ('CLERK' AS clerk, 'MANAGER'));
CREATE VIEW by_pair AS SELECT p.c10 FROM emp
  PIVOT (MAX(sal) FOR (job, deptno) IN (('CLERK', 10) AS c10, ('MANAGER', 20))) AS p
  WHERE p.ename <> 'x';
CREATE VIEW renamed AS SELECT d, clerks FROM (SELECT deptno, job FROM emp)
  PIVOT (COUNT(*) FOR job IN ('CLERK')) AS q (d, clerks);
CREATE VIEW unpivoted AS SELECT * FROM emp UNPIVOT INCLUDE NULLS (v FOR k IN (deptno AS 'dept', sal));
