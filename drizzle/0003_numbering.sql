CREATE TABLE "number_counters" (
	"company_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"series" text NOT NULL,
	"last_value" bigint NOT NULL,
	CONSTRAINT "number_counters_company_id_livemode_series_pk" PRIMARY KEY("company_id","livemode","series")
);
