-- LATERAL subqueries, CROSS APPLY and OUTER APPLY: joined on the subquery's equalities
-- with the items left of it (grouped by them too), its other relations to them as
-- conditions of the join; UNIQUE and SIMILAR TO.
CREATE TABLE emp (name VARCHAR, deptno INT, sal INT);
CREATE TABLE dept (deptno INT, dname VARCHAR NOT NULL, floor INT);
CREATE VIEW applied AS SELECT d.dname, e.name FROM dept d
  CROSS APPLY (SELECT name FROM emp WHERE emp.deptno = d.deptno AND sal > d.floor) e;
CREATE VIEW outer_applied AS SELECT d.dname, e.name FROM dept d
  OUTER APPLY (SELECT name FROM emp WHERE emp.deptno = d.deptno) e;
CREATE VIEW totals AS SELECT d.dname, s.n, s.total FROM dept d,
  LATERAL (SELECT COUNT(*) AS n, SUM(sal) AS total FROM emp WHERE emp.deptno = d.deptno) s;
CREATE VIEW by_sal AS SELECT d.dname, s.sal, s.c FROM dept d CROSS JOIN LATERAL
  (SELECT sal, COUNT(*) AS c FROM emp WHERE emp.deptno = d.deptno GROUP BY sal) AS s (sal, c);
CREATE VIEW checks AS SELECT dname, dname SIMILAR TO '(A|B)%' AS ab,
  UNIQUE (SELECT name FROM emp) AS names_unique FROM dept;
CREATE VIEW labelled AS SELECT e.* FROM dept d CROSS APPLY
  (SELECT d.dname || name AS who FROM emp WHERE emp.deptno = d.deptno ORDER BY sal DESC LIMIT 2) e;
