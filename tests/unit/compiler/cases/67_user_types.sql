-- CREATE TYPE (Feldera's structs): a ROW type of nullable fields by name, another type
-- built from it, a type that is not a ROW; columns, fields, ARRAYs, UNNEST, CAST and
-- the type's constructor, all of them the ROW type itself in the catalog and the plan.
CREATE TYPE address_typ AS (
   street          VARCHAR(30),
   city            VARCHAR(30),
   state           CHAR(2),
   postal_code     VARCHAR(6) NOT NULL);
CREATE TYPE person_typ AS (
   firstname       VARCHAR(30),
   lastname        VARCHAR(30),
   address         ADDRESS_TYP);
CREATE TYPE ids AS INT ARRAY;
CREATE TABLE pers (p0 person_typ, p1 person_typ, seen ids);
CREATE VIEW addresses AS SELECT pers.p0.address FROM pers WHERE pers.p0.firstname = 'Mike';
CREATE VIEW moved AS
SELECT address_typ(pers.p0.address.street, pers.p1.address.city, 'CA', '90000') AS a,
  CAST(ROW('x', 'y', 'NY', '1') AS address_typ) AS b, seen[1] AS first_seen
FROM pers;
CREATE TYPE simple AS (s INT, t BOOLEAN);
CREATE TYPE vec AS (fields simple ARRAY);
CREATE TABLE t (col vec);
CREATE VIEW unnested AS SELECT a.* FROM (t CROSS JOIN UNNEST(t.col.fields) a);
