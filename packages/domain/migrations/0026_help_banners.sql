CREATE TABLE "banners" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"texts" jsonb NOT NULL,
	"image" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "help_categories" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"names" jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "content_texts" ADD COLUMN "category_id" bigint;--> statement-breakpoint
CREATE INDEX "banners_published_idx" ON "banners" USING btree ("published","sort");--> statement-breakpoint
ALTER TABLE "content_texts" ADD CONSTRAINT "content_texts_category_id_help_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."help_categories"("id") ON DELETE no action ON UPDATE no action;