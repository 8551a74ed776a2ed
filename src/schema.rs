// @generated automatically by Diesel CLI.

diesel::table! {
    analysis_trees (game_id, user_id) {
        game_id -> Int8,
        user_id -> Int8,
        pgn -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> Int8,
        user_id -> Int8,
        token_hash -> Text,
        label -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    book_moves (id) {
        id -> Int8,
        variant -> Text,
        position -> Text,
        game_id -> Int8,
        ply -> Int4,
        uci -> Text,
        san -> Text,
        result -> Text,
    }
}

diesel::table! {
    challenge_seats (id) {
        id -> Int8,
        challenge_id -> Int8,
        seat -> Text,
        user_id -> Nullable<Int8>,
        invited_id -> Nullable<Int8>,
        taken_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    challenges (id) {
        id -> Int8,
        creator_id -> Int8,
        opponent_id -> Nullable<Int8>,
        kind -> Text,
        share_token -> Text,
        variant -> Text,
        variant_options -> Text,
        color -> Text,
        time_control -> Text,
        days_per_move -> Nullable<Int4>,
        increment_seconds -> Nullable<Int4>,
        cap_seconds -> Nullable<Int4>,
        rated -> Bool,
        status -> Text,
        game_id -> Nullable<Int8>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        initial_seconds -> Nullable<Int4>,
        auto_flag -> Bool,
        is_public -> Bool,
        setup_hours -> Nullable<Int4>,
    }
}

diesel::table! {
    computer_players (user_id) {
        user_id -> Int8,
        level -> Text,
    }
}

diesel::table! {
    conditional_moves (id) {
        id -> Int8,
        game_id -> Int8,
        user_id -> Int8,
        base_ply -> Int4,
        lines -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    email_preferences (id) {
        id -> Int8,
        user_id -> Int8,
        kind -> Text,
        mode -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    engine_analyses (game_id) {
        game_id -> Int8,
        status -> Text,
        engine -> Text,
        nodes -> Int8,
        positions -> Int4,
        done_positions -> Int4,
        requested_by -> Nullable<Int8>,
        requested_at -> Timestamp,
        claimed_by -> Nullable<Text>,
        claimed_until -> Nullable<Timestamp>,
        finished_at -> Nullable<Timestamp>,
        error -> Nullable<Text>,
    }
}

diesel::table! {
    engine_analysis_plies (game_id, ply) {
        game_id -> Int8,
        ply -> Int4,
        eval_cp -> Int4,
        mate -> Nullable<Int4>,
        best_uci -> Nullable<Text>,
        best_san -> Nullable<Text>,
        best_line -> Text,
        best_line_san -> Text,
        depth -> Int4,
        nodes -> Int8,
    }
}

diesel::table! {
    game_boards (id) {
        id -> Int8,
        game_id -> Int8,
        board -> Int4,
        fen -> Text,
        ply -> Int4,
        turn -> Text,
        deadline_at -> Nullable<Timestamp>,
        draw_offer -> Nullable<Text>,
        last_move_at -> Nullable<Timestamp>,
        low_time_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    game_imports (game_id) {
        game_id -> Int8,
        import_key -> Text,
        imported_by -> Nullable<Int8>,
        white_name -> Text,
        black_name -> Text,
        white_key -> Text,
        black_key -> Text,
        tags -> Text,
        imported_at -> Timestamp,
    }
}

diesel::table! {
    game_messages (id) {
        id -> Int8,
        game_id -> Int8,
        user_id -> Int8,
        ply -> Int4,
        kind -> Text,
        body -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    game_players (id) {
        id -> Int8,
        game_id -> Int8,
        user_id -> Int8,
        board -> Int4,
        color -> Text,
        time_left_seconds -> Nullable<Int8>,
        secret_state -> Nullable<Text>,
    }
}

diesel::table! {
    game_tags (id) {
        id -> Int8,
        user_id -> Int8,
        game_id -> Int8,
        tag -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    games (id) {
        id -> Int8,
        variant -> Text,
        variant_options -> Text,
        initial_fen -> Text,
        ply -> Int4,
        status -> Text,
        result -> Text,
        termination -> Nullable<Text>,
        time_control -> Text,
        days_per_move -> Nullable<Int4>,
        increment_seconds -> Nullable<Int4>,
        cap_seconds -> Nullable<Int4>,
        deadline_at -> Nullable<Timestamp>,
        rated -> Bool,
        is_public -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        finished_at -> Nullable<Timestamp>,
        initial_seconds -> Nullable<Int4>,
        auto_flag -> Bool,
        revision -> Int8,
    }
}

diesel::table! {
    leaves (id) {
        id -> Int8,
        user_id -> Int8,
        starts_at -> Timestamp,
        ends_at -> Timestamp,
        created_at -> Timestamp,
    }
}

diesel::table! {
    login_attempts (id) {
        id -> Int8,
        throttle_key -> Text,
        attempted_at -> Timestamp,
    }
}

diesel::table! {
    moves (id) {
        id -> Int8,
        game_id -> Int8,
        board -> Int4,
        ply -> Int4,
        uci -> Text,
        san -> Text,
        fen_after -> Text,
        player_id -> Nullable<Int8>,
        comment -> Nullable<Text>,
        played_at -> Timestamp,
    }
}

diesel::table! {
    outbox (id) {
        id -> Int8,
        kind -> Text,
        user_id -> Int8,
        game_id -> Nullable<Int8>,
        dedup_key -> Text,
        payload -> Text,
        status -> Text,
        attempts -> Int4,
        next_attempt_at -> Timestamp,
        last_error -> Nullable<Text>,
        created_at -> Timestamp,
        sent_at -> Nullable<Timestamp>,
        message_id -> Nullable<Text>,
    }
}

diesel::table! {
    rating_history (id) {
        id -> Int8,
        user_id -> Int8,
        variant -> Text,
        game_id -> Int8,
        opponent_id -> Int8,
        score -> Float8,
        rating_before -> Float8,
        deviation_before -> Float8,
        rating_after -> Float8,
        deviation_after -> Float8,
        volatility_after -> Float8,
        created_at -> Timestamp,
    }
}

diesel::table! {
    ratings (id) {
        id -> Int8,
        user_id -> Int8,
        variant -> Text,
        rating -> Float8,
        deviation -> Float8,
        volatility -> Float8,
        games -> Int4,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    team_chat (id) {
        id -> Int8,
        game_id -> Int8,
        team -> Text,
        user_id -> Int8,
        body -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    user_preferences (user_id) {
        user_id -> Int8,
        board_theme -> Text,
        piece_set -> Text,
        confirm_moves -> Bool,
        always_white -> Bool,
        next_game_after_move -> Bool,
        coordinates -> Bool,
        board_3d -> Bool,
        animation_ms -> Int4,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    users (id) {
        id -> Int8,
        username -> Text,
        username_key -> Text,
        email -> Text,
        email_verified_at -> Nullable<Timestamp>,
        password_hash -> Text,
        time_zone -> Text,
        created_at -> Timestamp,
        digest_hour -> Int4,
        session_epoch -> Int4,
        username_skeleton -> Nullable<Text>,
    }
}

diesel::joinable!(analysis_trees -> games (game_id));
diesel::joinable!(analysis_trees -> users (user_id));
diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(book_moves -> games (game_id));
diesel::joinable!(challenge_seats -> challenges (challenge_id));
diesel::joinable!(challenges -> games (game_id));
diesel::joinable!(computer_players -> users (user_id));
diesel::joinable!(conditional_moves -> games (game_id));
diesel::joinable!(conditional_moves -> users (user_id));
diesel::joinable!(email_preferences -> users (user_id));
diesel::joinable!(engine_analyses -> games (game_id));
diesel::joinable!(engine_analyses -> users (requested_by));
diesel::joinable!(engine_analysis_plies -> engine_analyses (game_id));
diesel::joinable!(game_boards -> games (game_id));
diesel::joinable!(game_imports -> games (game_id));
diesel::joinable!(game_imports -> users (imported_by));
diesel::joinable!(game_messages -> games (game_id));
diesel::joinable!(game_messages -> users (user_id));
diesel::joinable!(game_players -> games (game_id));
diesel::joinable!(game_players -> users (user_id));
diesel::joinable!(game_tags -> games (game_id));
diesel::joinable!(game_tags -> users (user_id));
diesel::joinable!(leaves -> users (user_id));
diesel::joinable!(moves -> games (game_id));
diesel::joinable!(moves -> users (player_id));
diesel::joinable!(outbox -> games (game_id));
diesel::joinable!(outbox -> users (user_id));
diesel::joinable!(rating_history -> games (game_id));
diesel::joinable!(ratings -> users (user_id));
diesel::joinable!(team_chat -> games (game_id));
diesel::joinable!(team_chat -> users (user_id));
diesel::joinable!(user_preferences -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    analysis_trees,
    api_tokens,
    book_moves,
    challenge_seats,
    challenges,
    computer_players,
    conditional_moves,
    email_preferences,
    engine_analyses,
    engine_analysis_plies,
    game_boards,
    game_imports,
    game_messages,
    game_players,
    game_tags,
    games,
    leaves,
    login_attempts,
    moves,
    outbox,
    rating_history,
    ratings,
    team_chat,
    user_preferences,
    users,
);
