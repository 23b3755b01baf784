import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { clientTypesSource } from '../../../scripts/client-types-source';
import { SERVICES } from '../../../src/application/services/service-list';
import { defineService } from '../../../src/application/services/service-definition';

class FixtureNoteAuthorDto {
  @IsString()
  _id!: string;

  @IsOptional()
  @IsString()
  name?: string;
}

class CreateFixtureNoteDto {
  @IsString()
  title!: string;

  @IsOptional()
  @IsIn(['low', 'high'])
  priority?: string;
}

class PatchFixtureNoteDto {
  @IsOptional()
  @IsString()
  title?: string;
}

class FixtureNotesQueryDto {
  @IsOptional()
  @IsString()
  title?: string;

  @IsOptional()
  @IsString()
  secret?: string;
}

/** A relation the record DTO declares: the author as the users policy shows it. */
class FixtureNoteRecordDto extends FixtureNotesQueryDto {
  @IsOptional()
  @ValidateNested()
  @Type(() => FixtureNoteAuthorDto)
  author?: FixtureNoteAuthorDto;

  @IsOptional()
  @IsInt()
  size?: number;
}

class ArchiveFixtureNoteDto {
  @IsString()
  id!: string;
}

class ArchiveFixtureResultDto {
  @IsBoolean()
  archived!: boolean;
}

const notes = defineService({
  path: 'api/notes',
  methods: ['find', 'get', 'create', 'archive', 'touch'],
  dto: {
    create: CreateFixtureNoteDto,
    patch: PatchFixtureNoteDto,
    query: FixtureNotesQueryDto,
    record: FixtureNoteRecordDto,
    methods: { archive: ArchiveFixtureNoteDto },
    results: { archive: ArchiveFixtureResultDto, touch: 'record' },
  },
  id: { field: 'id', type: 'uuid' },
  paginate: false,
  operators: ['$regex', '$near'],
  hiddenFields: ['secret'],
});

describe('clientTypesSource: the clients ServiceTypes, from the definitions', () => {
  it('is what the checked-in file holds (run npm run generate:client-types after changing a definition)', () => {
    const file = path.resolve(__dirname, '../../../src/application/services/service-types.generated.ts');
    expect(readFileSync(file, 'utf8')).toBe(clientTypesSource(SERVICES));
  });

  describe('for a definition with a relation, hidden fields, custom methods, extra operators and no pagination', () => {
    const source = clientTypesSource([notes]);

    it(
      'types the record from the record DTO: the id field required, a ' +
        'nested DTO as a nested type, hidden fields gone',
      () => {
        expect(source).toContain(
          'export interface ApiNotesRecord {\n  id: string;\n' +
            '  author?: FixtureNoteAuthorDto;\n  size?: number;\n  title?: string;\n}',
        );
        expect(source).toContain('export interface FixtureNoteAuthorDto {\n  _id: string;\n  name?: string;\n}');
        expect(source).not.toContain('secret');
      },
    );

    it('types the data, the queryable fields with extra operators, the methods and their results', () => {
      expect(source).toContain(
        'export interface CreateFixtureNoteDto {\n  title: string;\n  priority?: "low" | "high";\n}',
      );
      expect(source).toContain(
        "  'api/notes': {\n    record: ApiNotesRecord;\n    create: CreateFixtureNoteDto;\n" +
          '    update: CreateFixtureNoteDto;\n    patch: PatchFixtureNoteDto;',
      );
      expect(source).toContain(
        '    fields: {\n      id: string;\n      title: string;\n    };\n' +
          '    operators: { $regex: string; $near: unknown };',
      );
      expect(source).toContain("    standard: 'find' | 'get' | 'create';");
      expect(source).toContain(
        '    methods: {\n' +
          '      archive: { data: ArchiveFixtureNoteDto; result: ArchiveFixtureResultDto };\n' +
          '      touch: { data: unknown; result: ApiNotesRecord };\n    };',
      );
      expect(source).toContain('    paginated: false;');
      expect(source).toContain("  'api/notes': ['find', 'get', 'create', 'archive', 'touch'],");
    });
  });
});
